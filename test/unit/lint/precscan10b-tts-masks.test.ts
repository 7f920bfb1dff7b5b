// Correct speech-synthesis attention (Transformer-TTS, FastSpeech, VITS-style relative attention), read from the repositories
// of the session-30 scan (test/lint-scan/results/2026-12-05-scan-precscan10b.md) and written fresh: padding masks built
// from lengths in a utility file (`get_mask_from_lengths`, True past each length; `sequence_mask`, True before it; a
// key-padding mask from token ids, `seq_k.eq(pad)`), expanded over the queries or repeated over heads
// (`mask.repeat(n_head, 1, 1)` on `(n_head * B, L, S)` scores) and applied far from where they are built; a causal
// keep triangle multiplied with a keep padding mask, and a cross mask as the product of the two length masks. All
// silent (the scan gave no mask finding on them); each has a buggy form, one flipped polarity, that must be reported
// (ATT002), in the file the mask is used in, from evidence in another file.
import { strict as assert } from 'node:assert';
import { workspaceFindingLines } from './helpers';

const UTILS = `import torch


def get_mask_from_lengths(lengths, max_len=None):
    batch_size = lengths.shape[0]
    if max_len is None:
        max_len = torch.max(lengths).item()
    ids = torch.arange(0, max_len, device=lengths.device).unsqueeze(0).expand(batch_size, -1)
    return ids >= lengths.unsqueeze(1).expand(-1, max_len)


def sequence_mask(length, max_length=None):
    if max_length is None:
        max_length = length.max()
    x = torch.arange(max_length, dtype=length.dtype, device=length.device)
    return x.unsqueeze(0) < length.unsqueeze(1)


def get_attn_key_pad_mask(seq_k, seq_q, pad=0):
    len_q = seq_q.size(1)
    padding_mask = seq_k.eq(pad)
    return padding_mask.unsqueeze(1).expand(-1, len_q, -1)
`;

const LAYERS = `import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledDotProductAttention(nn.Module):
    def __init__(self, temperature):
        super().__init__()
        self.temperature = temperature

    def forward(self, q, k, v, mask=None):
        attn = torch.bmm(q, k.transpose(1, 2)) / self.temperature
        if mask is not None:
            attn = attn.masked_fill(mask, -np.inf)
        attn = F.softmax(attn, dim=2)
        return torch.bmm(attn, v), attn


class MultiHeadAttention(nn.Module):
    def __init__(self, n_head, d_model, d_k, d_v):
        super().__init__()
        self.n_head, self.d_k, self.d_v = n_head, d_k, d_v
        self.w_qs = nn.Linear(d_model, n_head * d_k)
        self.w_ks = nn.Linear(d_model, n_head * d_k)
        self.w_vs = nn.Linear(d_model, n_head * d_v)
        self.attention = ScaledDotProductAttention(temperature=np.power(d_k, 0.5))
        self.fc = nn.Linear(n_head * d_v, d_model)

    def forward(self, q, k, v, mask=None):
        d_k, d_v, n_head = self.d_k, self.d_v, self.n_head
        sz_b, len_q, _ = q.size()
        sz_b, len_k, _ = k.size()
        sz_b, len_v, _ = v.size()
        q = self.w_qs(q).view(sz_b, len_q, n_head, d_k)
        k = self.w_ks(k).view(sz_b, len_k, n_head, d_k)
        v = self.w_vs(v).view(sz_b, len_v, n_head, d_v)
        q = q.permute(2, 0, 1, 3).contiguous().view(-1, len_q, d_k)
        k = k.permute(2, 0, 1, 3).contiguous().view(-1, len_k, d_k)
        v = v.permute(2, 0, 1, 3).contiguous().view(-1, len_v, d_v)
        mask = mask.repeat(n_head, 1, 1)
        output, attn = self.attention(q, k, v, mask=mask)
        output = output.view(n_head, sz_b, len_q, d_v).permute(1, 2, 0, 3).contiguous().view(sz_b, len_q, -1)
        return self.fc(output), attn


class RelAttention(nn.Module):
    def __init__(self, channels, n_heads):
        super().__init__()
        self.k_channels = channels // n_heads
        self.n_heads = n_heads
        self.conv_q = nn.Conv1d(channels, channels, 1)
        self.conv_k = nn.Conv1d(channels, channels, 1)
        self.conv_v = nn.Conv1d(channels, channels, 1)

    def forward(self, x, c, attn_mask=None):
        q, k, v = self.conv_q(x), self.conv_k(c), self.conv_v(c)
        b, d, t_s, t_t = (*k.size(), q.size(2))
        query = q.view(b, self.n_heads, self.k_channels, t_t).transpose(2, 3)
        key = k.view(b, self.n_heads, self.k_channels, t_s).transpose(2, 3)
        value = v.view(b, self.n_heads, self.k_channels, t_s).transpose(2, 3)
        scores = torch.matmul(query / self.k_channels ** 0.5, key.transpose(-2, -1))
        if attn_mask is not None:
            scores = scores.masked_fill(attn_mask == 0, -1e4)
        p_attn = F.softmax(scores, dim=-1)
        out = torch.matmul(p_attn, value)
        return out.transpose(2, 3).contiguous().view(b, d, t_t)
`;

const MODEL = `import torch
import torch.nn as nn

from layers import MultiHeadAttention, RelAttention
from utils import get_attn_key_pad_mask, get_mask_from_lengths, sequence_mask


class Encoder(nn.Module):
    def __init__(self, d_model=256, n_head=2, n_layers=4):
        super().__init__()
        self.layers = nn.ModuleList([MultiHeadAttention(n_head, d_model, d_model // n_head, d_model // n_head) for _ in range(n_layers)])

    def forward(self, x, src_lens, max_len):
        mask = get_mask_from_lengths(src_lens, max_len)
        slf_attn_mask = mask.unsqueeze(1).expand(-1, max_len, -1)
        for layer in self.layers:
            x, _ = layer(x, x, x, mask=slf_attn_mask)
            x = x.masked_fill(mask.unsqueeze(-1), 0)
        return x


class TokenEncoder(nn.Module):
    def __init__(self, d_model=256, n_head=2):
        super().__init__()
        self.attn = MultiHeadAttention(n_head, d_model, d_model // n_head, d_model // n_head)

    def forward(self, x, src_seq):
        slf_attn_mask = get_attn_key_pad_mask(src_seq, src_seq)
        return self.attn(x, x, x, mask=slf_attn_mask)[0]


class Decoder(nn.Module):
    def __init__(self, channels=192, n_heads=2):
        super().__init__()
        self.self_attn = RelAttention(channels, n_heads)
        self.cross_attn = RelAttention(channels, n_heads)

    def forward(self, x, x_lengths, c, c_lengths):
        x_mask = sequence_mask(x_lengths, x.size(2)).unsqueeze(1).to(x.dtype)
        c_mask = sequence_mask(c_lengths, c.size(2)).unsqueeze(1).to(x.dtype)
        causal = torch.tril(torch.ones(x.size(2), x.size(2), device=x.device)).unsqueeze(0).unsqueeze(0)
        self_mask = causal * x_mask.unsqueeze(2)
        cross_mask = c_mask.unsqueeze(2) * x_mask.unsqueeze(3)
        x = x * x_mask
        x = x + self.self_attn(x, x, self_mask)
        x = x + self.cross_attn(x, c, cross_mask)
        return x * x_mask
`;

const files = (edit: (f: { utils: string; layers: string; model: string }) => void = () => undefined): Record<string, string> => {
  const f = { utils: UTILS, layers: LAYERS, model: MODEL };
  edit(f);
  return { 'utils.py': f.utils, 'layers.py': f.layers, 'model.py': f.model };
};

describe('lint: speech-synthesis padding masks built from lengths in another file (ATT002)', () => {
  it('the correct forms: silent in every file', async () => {
    for (const path of ['utils.py', 'layers.py', 'model.py']) {
      const ws = files();
      for (const code of ['ATT001', 'ATT002', 'ATT003', 'ATT004', 'ATT005', 'ATT006', 'ATT007', 'ATT008'])
        assert.deepEqual(await workspaceFindingLines(ws, path, code), [], `${path} ${code}`);
    }
  });
  it('buggy: get_mask_from_lengths made True before each length, filled where True: reported', async () => {
    const ws = files((f) => (f.utils = f.utils.replace('return ids >= lengths', 'return ids < lengths')));
    assert.deepEqual(await workspaceFindingLines(ws, 'layers.py', 'ATT002'), [15]);
  });
  it('buggy: the key-padding mask from token ids made True at real tokens (ne(pad)): reported', async () => {
    const ws = files((f) => (f.utils = f.utils.replace('seq_k.eq(pad)', 'seq_k.ne(pad)')));
    assert.deepEqual(await workspaceFindingLines(ws, 'layers.py', 'ATT002'), [15]);
  });
  it('buggy: the padding mask inverted before it is expanded over the queries: reported', async () => {
    const ws = files((f) => (f.model = f.model.replace('slf_attn_mask = mask.unsqueeze(1)', 'slf_attn_mask = ~mask.unsqueeze(1)')));
    assert.deepEqual(await workspaceFindingLines(ws, 'layers.py', 'ATT002'), [15]);
  });
  it('buggy: the keep masks of the relative attention filled where == 1: reported', async () => {
    const ws = files((f) => (f.layers = f.layers.replace('attn_mask == 0, -1e4', 'attn_mask == 1, -1e4')));
    assert.deepEqual(await workspaceFindingLines(ws, 'layers.py', 'ATT002'), [64]);
  });
});

// The TensorFlow versions (Transformer-TTS in TF): a padding mask True at padding made float and given a head and a
// query axis, a look-ahead mask `1 - band_part(ones, -1, 0)`, the two joined with `tf.maximum` (the or of two
// ignore masks), added to the logits times -1e9 in another file. Silent; the padding mask built True at real tokens is
// reported.
const TF_MASKS = `import tensorflow as tf


def create_padding_mask(seq):
    seq = tf.cast(tf.math.equal(seq, 0), tf.float32)
    return seq[:, tf.newaxis, tf.newaxis, :]


def create_look_ahead_mask(size):
    return 1 - tf.linalg.band_part(tf.ones((size, size)), -1, 0)


def create_masks(inp, tar):
    enc_padding_mask = create_padding_mask(inp)
    dec_padding_mask = create_padding_mask(inp)
    look_ahead_mask = create_look_ahead_mask(tf.shape(tar)[1])
    dec_target_padding_mask = create_padding_mask(tar)
    combined_mask = tf.maximum(dec_target_padding_mask, look_ahead_mask)
    return enc_padding_mask, combined_mask, dec_padding_mask
`;

const TF_ATTN = `import tensorflow as tf

from masks import create_masks


def scaled_dot_product_attention(q, k, v, mask):
    matmul_qk = tf.matmul(q, k, transpose_b=True)
    dk = tf.cast(tf.shape(k)[-1], tf.float32)
    scaled_attention_logits = matmul_qk / tf.math.sqrt(dk)
    if mask is not None:
        scaled_attention_logits += mask * -1e9
    attention_weights = tf.nn.softmax(scaled_attention_logits, axis=-1)
    return tf.matmul(attention_weights, v), attention_weights


def decode(q_enc, q_dec, inp, tar):
    enc_mask, combined_mask, dec_mask = create_masks(inp, tar)
    x, _ = scaled_dot_product_attention(q_dec, q_dec, q_dec, combined_mask)
    y, _ = scaled_dot_product_attention(x, q_enc, q_enc, dec_mask)
    return y
`;

describe('lint: TensorFlow padding and look-ahead masks built in another file (ATT002)', () => {
  it('the correct forms: silent', async () => {
    const ws = { 'masks.py': TF_MASKS, 'attn.py': TF_ATTN };
    for (const code of ['ATT001', 'ATT002', 'ATT003', 'ATT004', 'ATT006', 'ATT007', 'ATT008'])
      assert.deepEqual(await workspaceFindingLines(ws, 'attn.py', code), [], code);
  });
  it('buggy: the padding mask True at real tokens (not_equal), added times -1e9: reported', async () => {
    const ws = { 'masks.py': TF_MASKS.replace('tf.math.equal(seq, 0)', 'tf.math.not_equal(seq, 0)'), 'attn.py': TF_ATTN };
    // At the fill (the padding mask read the wrong way round), and at the call that returns combined_mask: there the
    // keep padding mask is joined by tf.maximum with the ignore look-ahead mask (session 31: a join made in another file
    // is reported where it is read, as it is in one file).
    assert.deepEqual(await workspaceFindingLines(ws, 'attn.py', 'ATT002'), [11, 17]);
  });
});
