// Classes of correct code from the domains of the false-positive scan of session 30, precscan10e
// (test/lint-scan/results/2026-12-05-scan-precscan10e.md: stock-prediction, SMILES/chemistry seq2seq, OCR and
// TransUNet repositories). The scan gave no false finding; these are the correct forms seen there, written fresh and
// varied slightly, pinned as silent, each beside the buggy form that must still be reported.
//  1. ATT002: masks from sequence lengths in a seq2seq model (a padding mask `positions >= lengths`, a valid mask
//     `arange < lengths` inverted with `~`), an OCR decoder's `(trg == 0).transpose(0, 1)` transposed back with
//     `permute(1, 0)`, across files (helpers in masks.py, the model in model.py), Keras's `tf.sequence_mask` passed
//     as `attention_mask` (True = attend), and a keep buffer `idx[None, :] <= idx[:, None]` inverted for
//     nn.MultiheadAttention's `attn_mask`.
//  2. ATT004: Whisper's split scale, `(d // h) ** -0.25` on the queries and on the keys (one 1/sqrt(d) in all); a
//     multiplicative `self.dk = (d // h) ** -0.5` (a ViT inside a TransUNet writes `** (1 / 2)`: reported).
//  3. ATT006: inverted attention dropout after softmax (`attn * keep / (1 - p)`), and a graph attention over stocks
//     masked with the adjacency before the softmax and multiplied by it again after.
//  4. ATT008: a cached decoding step with a bottom-right mask `tril(S - T)` and `is_causal=past is None and T > 1`.
//  5. ATT002 (a recall gap found on the way, fixed): a parameter its function hands to an embedding table
//     (`self.embed(trg)`) holds token ids whatever its name, so `trg != 0` is True at the real tokens; before, only
//     an id-like name (`src`, `tgt`, `input_ids`) made `x != 0` a padding comparison, and `trg`, `smiles`, `chars`
//     were silent, buggy or not.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const SEQ2SEQ = `import torch
import torch.nn as nn


def lengths_to_padding(lengths, max_len):
    positions = torch.arange(max_len, device=lengths.device)[None, :]
    return positions >= lengths[:, None]


def lengths_to_valid(lengths, max_len):
    return torch.arange(max_len, device=lengths.device).expand(len(lengths), max_len) < lengths.unsqueeze(1)


class ReactionModel(nn.Module):
    def __init__(self, vocab, d=256):
        super().__init__()
        self.src_embed = nn.Embedding(vocab, d)
        self.tgt_embed = nn.Embedding(vocab, d)
        self.transformer = nn.Transformer(d, 8, batch_first=True)

    def forward(self, src, src_len, tgt, tgt_len):
        src_pad = lengths_to_padding(src_len, src.size(1))
        tgt_valid = lengths_to_valid(tgt_len, tgt.size(1))
        causal = self.transformer.generate_square_subsequent_mask(tgt.size(1)).to(src.device)
        return self.transformer(self.src_embed(src), self.tgt_embed(tgt), tgt_mask=causal,
                                src_key_padding_mask=src_pad, tgt_key_padding_mask=~tgt_valid,
                                memory_key_padding_mask=src_pad)
`;

const OCR_DECODER = `import torch
import torch.nn as nn


class LineDecoder(nn.Module):
    def __init__(self, vocab, d=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.tf_decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(d, 8), 4)

    def causal(self, sz):
        mask = torch.triu(torch.ones(sz, sz), 1)
        return mask.masked_fill(mask == 1, float('-inf'))

    def make_len_mask(self, inp):
        return (inp == 0).transpose(0, 1)

    def forward(self, memory, trg):
        trg_pad_mask = self.make_len_mask(trg)
        t = self.embed(trg).permute(1, 0, 2)
        return self.tf_decoder(t, memory, tgt_mask=self.causal(trg.shape[1]),
                               tgt_key_padding_mask=trg_pad_mask.permute(1, 0))
`;

describe('lint: seq2seq masks from sequence lengths, an OCR decoder padding mask (ATT002)', () => {
  it('a padding mask from lengths and a valid mask inverted with ~: silent', async () => {
    assert.deepEqual(await findingLines(SEQ2SEQ, 'ATT002'), []);
  });
  it('buggy: the valid mask passed uninverted as tgt_key_padding_mask', async () => {
    const src = SEQ2SEQ.replace('tgt_key_padding_mask=~tgt_valid', 'tgt_key_padding_mask=tgt_valid');
    assert.deepEqual(await findingLines(src, 'ATT002'), [26]);
  });
  it('buggy: the real tokens `src != 0` passed as src_key_padding_mask', async () => {
    const src = SEQ2SEQ.replace('src_key_padding_mask=src_pad,', 'src_key_padding_mask=(src != 0),');
    assert.deepEqual(await findingLines(src, 'ATT002'), [26]);
  });
  it('an OCR decoder: `(trg == 0).transpose(0, 1)` permuted back for tgt_key_padding_mask: silent', async () => {
    assert.deepEqual(await findingLines(OCR_DECODER, 'ATT002'), []);
  });
  it('buggy: the decoder masks the real characters, `(inp != 0)`', async () => {
    const src = OCR_DECODER.replace('(inp == 0)', '(inp != 0)');
    assert.deepEqual(await findingLines(src, 'ATT002'), [22]);
  });
});

const EMBEDDED = `import torch.nn as nn


class CharDecoder(nn.Module):
    def __init__(self, vocab, d=256):
        super().__init__()
        self.chars = nn.Embedding(vocab, d)
        self.decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(d, 8, batch_first=True), 4)

    def forward(self, memory, trg):
        pad = trg == 0
        return self.decoder(self.chars(trg), memory, tgt_key_padding_mask=pad)
`;

describe('lint: a parameter handed to an embedding table holds token ids, whatever its name (ATT002)', () => {
  it('`trg == 0` of the ids `self.chars(trg)` embeds, as tgt_key_padding_mask: silent', async () => {
    assert.deepEqual(await findingLines(EMBEDDED, 'ATT002'), []);
  });
  it('buggy: `trg != 0` (True at the real characters) as tgt_key_padding_mask', async () => {
    assert.deepEqual(await findingLines(EMBEDDED.replace('trg == 0', 'trg != 0'), 'ATT002'), [12]);
  });
  it('no embedding of the parameter (stock features, `x != 0`): no evidence of ids, silent either way', async () => {
    const src = EMBEDDED.replace('self.chars(trg)', 'trg').replace('trg == 0', 'trg != 0');
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });
  it('the name rebound to the embeddings before the comparison: the comparison reads vectors, silent', async () => {
    const src = EMBEDDED.replace('        pad = trg == 0\n', '        trg = self.chars(trg)\n        pad = trg != 0\n').replace(
      'self.decoder(self.chars(trg),',
      'self.decoder(trg,',
    );
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });
  it('the OCR decoder with a helper comparing `inp != 0`, reached from `trg` the decoder embeds: reported', async () => {
    const src = OCR_DECODER.replace('(inp == 0)', '(inp != 0)');
    assert.deepEqual(await findingLines(src, 'ATT002'), [22]);
  });
});

const MASKS = `import torch

PAD = 0


def valid_tokens(ids):
    return ids != PAD


def padding_from_lengths(lengths, max_len):
    return torch.arange(max_len, device=lengths.device)[None, :] >= lengths[:, None]
`;

const MODEL = `import torch.nn as nn

from masks import padding_from_lengths, valid_tokens


class Reactor(nn.Module):
    def __init__(self, vocab, d=128):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.transformer = nn.Transformer(d, 8, batch_first=True)

    def forward(self, src, tgt, tgt_len):
        src_pad = ~valid_tokens(src)
        tgt_pad = padding_from_lengths(tgt_len, tgt.size(1))
        return self.transformer(self.embed(src), self.embed(tgt),
                                src_key_padding_mask=src_pad, tgt_key_padding_mask=tgt_pad)
`;

describe('lint: mask helpers in one file, the seq2seq model in another (ATT002)', () => {
  it('the model inverts the valid mask and passes the padding mask as it is: silent', async () => {
    const files = { 'masks.py': MASKS, 'model.py': MODEL };
    assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT002'), []);
    assert.deepEqual(await workspaceFindingLines(files, 'masks.py', 'ATT002'), []);
  });
  it('buggy: the valid mask passed as it is and the padding mask inverted: both reported', async () => {
    const model = MODEL.replace('src_pad = ~valid_tokens(src)', 'src_pad = valid_tokens(src)').replace(
      'tgt_pad = padding_from_lengths(',
      'tgt_pad = ~padding_from_lengths(',
    );
    const files = { 'masks.py': MASKS, 'model.py': model };
    assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT002'), [16, 16]);
  });
});

const KERAS_STOCK = `import tensorflow as tf
from tensorflow.keras import layers


class StockBlock(layers.Layer):
    def __init__(self, d, heads):
        super().__init__()
        self.mha = layers.MultiHeadAttention(heads, d // heads)

    def call(self, x, lengths):
        valid = tf.sequence_mask(lengths, tf.shape(x)[1])
        return self.mha(x, x, attention_mask=valid[:, tf.newaxis, :], use_causal_mask=True)
`;

const TORCH_LAG = `import torch
import torch.nn as nn


class LagAttention(nn.Module):
    def __init__(self, d, heads, max_len=512):
        super().__init__()
        self.mha = nn.MultiheadAttention(d, heads, batch_first=True)
        idx = torch.arange(max_len)
        self.register_buffer('allowed', idx[None, :] <= idx[:, None])

    def forward(self, x):
        T = x.size(1)
        blocked = ~self.allowed[:T, :T]
        return self.mha(x, x, x, attn_mask=blocked, need_weights=False)[0]
`;

describe('lint: stock-series attention masks, Keras and PyTorch conventions (ATT002)', () => {
  it('Keras: tf.sequence_mask (True at real steps) as attention_mask (True = attend): silent', async () => {
    assert.deepEqual(await findingLines(KERAS_STOCK, 'ATT002'), []);
  });
  it('buggy: Keras given the padding (the sequence mask inverted)', async () => {
    const src = KERAS_STOCK.replace('valid = tf.sequence_mask(lengths, tf.shape(x)[1])', 'valid = tf.logical_not(tf.sequence_mask(lengths, tf.shape(x)[1]))');
    assert.deepEqual(await findingLines(src, 'ATT002'), [12]);
  });
  it('PyTorch: a keep buffer `idx[None, :] <= idx[:, None]` inverted for attn_mask (True = masked out): silent', async () => {
    assert.deepEqual(await findingLines(TORCH_LAG, 'ATT002'), []);
  });
  it('buggy: the keep buffer passed as attn_mask', async () => {
    const src = TORCH_LAG.replace('blocked = ~self.allowed[:T, :T]', 'blocked = self.allowed[:T, :T]');
    assert.deepEqual(await findingLines(src, 'ATT002'), [15]);
  });
});

const WHISPER_SCALE = `import torch
import torch.nn as nn


class SplitScaleAttention(nn.Module):
    def __init__(self, n_state, n_head):
        super().__init__()
        self.n_head = n_head
        self.query = nn.Linear(n_state, n_state)
        self.key = nn.Linear(n_state, n_state, bias=False)
        self.value = nn.Linear(n_state, n_state)

    def forward(self, x):
        q, k, v = self.query(x), self.key(x), self.value(x)
        n_batch, n_ctx, n_state = q.shape
        scale = (n_state // self.n_head) ** -0.25
        q = q.view(*q.shape[:2], self.n_head, -1).permute(0, 2, 1, 3) * scale
        k = k.view(*k.shape[:2], self.n_head, -1).permute(0, 2, 3, 1) * scale
        v = v.view(*v.shape[:2], self.n_head, -1).permute(0, 2, 1, 3)
        w = (q @ k).float().softmax(dim=-1)
        return (w @ v).permute(0, 2, 1, 3).flatten(start_dim=2)
`;

const VIT_DK = `import torch
import torch.nn as nn
from einops import rearrange


class MultiHeadAttention(nn.Module):
    def __init__(self, embedding_dim, head_num):
        super().__init__()
        self.head_num = head_num
        self.dk = (embedding_dim // head_num) ** -0.5
        self.qkv_layer = nn.Linear(embedding_dim, embedding_dim * 3, bias=False)

    def forward(self, x, mask=None):
        qkv = self.qkv_layer(x)
        query, key, value = tuple(rearrange(qkv, 'b t (d k h) -> k b h t d', k=3, h=self.head_num))
        energy = torch.einsum("... i d , ... j d -> ... i j", query, key) * self.dk
        if mask is not None:
            energy = energy.masked_fill(mask, float('-inf'))
        attention = torch.softmax(energy, dim=-1)
        return torch.einsum("... i j , ... j d -> ... i d", attention, value)
`;

describe('lint: split and multiplicative scales (ATT004)', () => {
  it("Whisper's d ** -0.25 on the queries and on the keys (1/sqrt(d) in all): silent", async () => {
    assert.deepEqual(await findingLines(WHISPER_SCALE, 'ATT004'), []);
  });
  it('buggy: d ** -0.5 on both (the scores divided by d)', async () => {
    const src = WHISPER_SCALE.replace('** -0.25', '** -0.5');
    assert.deepEqual(await findingLines(src, 'ATT004'), [18]);
  });
  it('a ViT encoder multiplying by self.dk = (d // h) ** -0.5: silent', async () => {
    assert.deepEqual(await findingLines(VIT_DK, 'ATT004'), []);
  });
  it("buggy: self.dk = (d // h) ** (1 / 2), multiplied (the scan's true finding)", async () => {
    const src = VIT_DK.replace('** -0.5', '** (1 / 2)');
    assert.deepEqual(await findingLines(src, 'ATT004'), [16]);
  });
});

const AFTER_SOFTMAX = `import torch
import torch.nn as nn
import torch.nn.functional as F


class DropAttn(nn.Module):
    def __init__(self, p=0.1):
        super().__init__()
        self.p = p

    def forward(self, q, k, v):
        attn = (q @ k.transpose(-2, -1)) * q.size(-1) ** -0.5
        attn = attn.softmax(dim=-1)
        if self.training:
            keep = (torch.rand_like(attn) > self.p).float()
            attn = attn * keep / (1 - self.p)
        return attn @ v


class StockGraphAttention(nn.Module):
    def forward(self, h, adj):
        e = h @ h.transpose(-1, -2) / h.size(-1) ** 0.5
        e = e.masked_fill(adj == 0, -9e15)
        a = F.softmax(e, dim=-1)
        a = a * adj
        return a @ h


def padded_attention(q, k, v, lengths):
    valid = torch.arange(k.size(-2), device=k.device)[None, :] < lengths[:, None]
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    scores = scores.masked_fill(~valid[:, None, None, :], float('-inf'))
    w = torch.softmax(scores, dim=-1)
    w = w.masked_fill(~valid[:, None, None, :], 0.0)
    return w @ v
`;

describe('lint: products with the weights after softmax that are no mask, or repeat one (ATT006)', () => {
  it('inverted attention dropout, a graph attention masked before and after, a padding mask repeated: silent', async () => {
    assert.deepEqual(await findingLines(AFTER_SOFTMAX, 'ATT006'), []);
  });
  it('buggy: the padded attention masked only after the softmax', async () => {
    const src = AFTER_SOFTMAX.replace("    scores = scores.masked_fill(~valid[:, None, None, :], float('-inf'))\n", '');
    assert.deepEqual(await findingLines(src, 'ATT006'), [33]);
  });
});

const CACHED_STEP = `import torch
import torch.nn as nn
import torch.nn.functional as F


class GreedyDecode(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)

    def step(self, x, cache):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        if cache:
            k = torch.cat([cache['k'], k], dim=2)
            v = torch.cat([cache['v'], v], dim=2)
        cache['k'], cache['v'] = k, v
        S = k.size(2)
        allowed = torch.ones(T, S, dtype=torch.bool, device=x.device).tril(S - T)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)

    def step2(self, x, past=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        if past is not None:
            k = torch.cat([past[0], k], dim=-2)
            v = torch.cat([past[1], v], dim=-2)
        return F.scaled_dot_product_attention(q, k, v, is_causal=past is None and T > 1), (k, v)
`;

describe('lint: a greedy decoder caching its keys (ATT008)', () => {
  it('a bottom-right mask tril(S - T), is_causal only without a cache: silent', async () => {
    assert.deepEqual(await findingLines(CACHED_STEP, 'ATT008'), []);
  });
  it('buggy: the top-left tril() and is_causal=True on the cached keys', async () => {
    const src = CACHED_STEP.replace('tril(S - T)', 'tril()').replace('is_causal=past is None and T > 1', 'is_causal=True');
    assert.deepEqual(await findingLines(src, 'ATT008'), [21, 29]);
  });
});
