// Session 36, reg-mask-s36: ATT002 classes from the regression batches' false findings and misses (read case by case
// from this session). Each class is written here as small programs of its own: the natural bug, its fixed form, the
// evidence in another file, and the misleading correct forms the rule is now silent on.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

describe('reg-mask-s36: a product of scores with a 0/1 mask masks only what a softmax reads', () => {
  // scores: (B, H, S, S); ids: (B, S).
  const padded = (maskExpr: string) => `import torch


def attend(q, k, v, ids, pad_id):
    pad = (ids == pad_id)[:, None, None, :]  # (B, 1, 1, S): True at padding
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5  # (B, H, S, S)
    scores = scores * ${maskExpr}
    return torch.softmax(scores, dim=-1) @ v
`;

  it('the natural bug: the scores times a padding (ignore) mask, then softmaxed: reported', async () => {
    assert.deepEqual(await findingLines(padded('pad.float()'), 'ATT002'), [7]);
  });

  it('fixed: times the keep mask: silent', async () => {
    assert.deepEqual(await findingLines(padded('(~pad).float()'), 'ATT002'), []);
  });

  it('misleading correct form: a 0/1 gate on relative-position logits that are then added to q·kᵀ: silent', async () => {
    const src = `import torch


class RelAttention(torch.nn.Module):
    def __init__(self, dh, max_len):
        super().__init__()
        self.rel = torch.nn.Parameter(torch.randn(max_len, dh))

    def forward(self, q, k, v, lengths):
        # q, k, v: (B, H, L, dh); lengths: (B,)
        L = q.size(2)
        rel = torch.einsum("bhld,md->bhlm", q, self.rel[-L:])  # (B, H, L, L)
        over = torch.arange(L)[None, :] >= lengths[:, None]  # (B, L): True past each length
        rel = rel * over[:, None, None, :].to(rel.dtype)
        scores = (q @ k.transpose(-2, -1) + rel) / q.size(-1) ** 0.5  # (B, H, L, L)
        return torch.softmax(scores, dim=-1) @ v
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });

  it('misleading correct form: the gate in a static helper that returns the product to the caller, which adds it: silent', async () => {
    const src = `import torch


class RelAttention(torch.nn.Module):
    def __init__(self, dh, max_len):
        super().__init__()
        self.rel = torch.nn.Parameter(torch.randn(max_len, dh))

    def forward(self, q, k, v, lengths):
        L = q.size(2)
        rel = self._gate(torch.einsum("bhld,md->bhlm", q, self.rel[-L:]), lengths)  # (B, H, L, L)
        scores = (q @ k.transpose(-2, -1) + rel) / q.size(-1) ** 0.5
        return torch.softmax(scores, dim=-1) @ v

    @staticmethod
    def _gate(rel, lengths):
        over = torch.arange(rel.size(-1))[None, :] >= lengths[:, None]  # (B, L)
        return over[:, None, None, :].to(rel.dtype) * rel
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });

  it('cross-file pair: the mask built in another file; the product softmaxed is reported, the gate summed into the scores is not', async () => {
    const masks = `import torch


def past_length(ids, pad_id):
    return (ids == pad_id)[:, None, None, :]  # (B, 1, 1, S): True at padding
`;
    const model = `import torch

from masks import past_length


def attend(q, k, v, ids, pad_id):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5  # (B, H, S, S)
    scores = scores * past_length(ids, pad_id).float()
    return torch.softmax(scores, dim=-1) @ v


def attend_rel(q, k, v, rel_emb, ids, pad_id):
    rel = torch.einsum("bhld,md->bhlm", q, rel_emb)  # (B, H, L, L)
    rel = rel * past_length(ids, pad_id).float()
    scores = (q @ k.transpose(-2, -1) + rel) / q.size(-1) ** 0.5
    return torch.softmax(scores, dim=-1) @ v
`;
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': masks, 'model.py': model }, 'model.py', 'ATT002'), [8]);
  });
});

describe('reg-mask-s36: a mask converted to additive form from itself is judged where it is read', () => {
  // PyTorch's generate_square_subsequent_mask idiom: m.float().masked_fill(m == 0, -inf).masked_fill(m == 1, 0.0).
  const lm = (build: string) => `import torch
import torch.nn as nn


def subsequent(size):
${build}


class LM(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.body = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, h), 2)

    def forward(self, x):
        # x: (S, B, d)
        return self.body(x, subsequent(x.size(0)))
`;
  const convert = 'allowed.float().masked_fill(allowed == 0, float("-inf")).masked_fill(allowed == 1, float(0.0))';

  it('the natural bug: the untransposed triangle converted and handed to the encoder: reported at the encoder', async () => {
    const src = lm(`    allowed = torch.triu(torch.ones(size, size)) == 1  # (size, size): True for key j >= query i
    return ${convert}`);
    assert.deepEqual(await findingLines(src, 'ATT002'), [17]);
  });

  it("fixed: PyTorch's helper, transposed before the conversion: silent", async () => {
    const src = lm(`    allowed = (torch.triu(torch.ones(size, size)) == 1).transpose(0, 1)  # True for j <= i
    return ${convert}`);
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });

  it('misleading correct form: converted first, transposed after: silent (no finding at the conversion either)', async () => {
    const src = lm(`    allowed = torch.triu(torch.ones(size, size)) == 1
    additive = ${convert}
    return additive.transpose(0, 1)`);
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });

  it('misleading correct form: a mask of unknown meaning converted: silent', async () => {
    const src = lm(`    allowed = torch.ones(size, size) == 1
    return ${convert}`);
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });

  it('cross-file pair: the conversion in a masks module, the encoder in the model: reported at the encoder', async () => {
    const masks = `import torch


def subsequent(size):
    allowed = torch.triu(torch.ones(size, size)) == 1  # True for key j >= query i
    return ${convert}
`;
    const model = `import torch.nn as nn

from masks import subsequent


class LM(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.body = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, h), 2)

    def forward(self, x):
        return self.body(x, subsequent(x.size(0)))
`;
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': masks, 'model.py': model }, 'model.py', 'ATT002'), [12]);
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': masks, 'model.py': model }, 'masks.py', 'ATT002'), []);
  });
});

describe('reg-mask-s36: a causal triangle combined with another mask bounds what the result can mean', () => {
  // future: (t, t) True above the diagonal; attention_mask: (B, S) of a caller the file does not show.
  const sdpa = (combine: string, read: string) => `import torch
import torch.nn.functional as F


def attend(q, k, v, attention_mask):
    t = q.size(-2)
    future = torch.triu(torch.ones((t, t), dtype=torch.bool), diagonal=1)  # (t, t): True on the future
    bias = ${combine}
    return F.scaled_dot_product_attention(q, k, v, attn_mask=${read})
`;

  it('the natural bug: the future triangle or-ed with a padding mask of unknown meaning, read by SDPA as keep: reported', async () => {
    assert.deepEqual(await findingLines(sdpa('future | attention_mask[:, None, None, :]', 'bias'), 'ATT002'), [9]);
    assert.deepEqual(await findingLines(sdpa('future & attention_mask[:, None, None, :]', 'bias'), 'ATT002'), [9]);
  });

  it('fixed: the combination inverted before SDPA: silent', async () => {
    assert.deepEqual(await findingLines(sdpa('future | attention_mask[:, None, None, :]', '~bias'), 'ATT002'), []);
    assert.deepEqual(await findingLines(sdpa('~future & attention_mask[:, None, None, :]', 'bias'), 'ATT002'), []);
  });

  // (B, 1, n, 1) real queries and the future, as a translation model's target mask.
  const fill = (fillMask: string) => `import torch


def attend(q, k, v, tgt, pad):
    n = tgt.size(1)
    real_q = (tgt != pad).unsqueeze(1).unsqueeze(3)  # (B, 1, n, 1)
    future = torch.triu(torch.ones(n, n), diagonal=1).bool()  # (n, n)
    mask = real_q & future
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5  # (B, H, n, n)
    scores = scores.masked_fill(${fillMask}, -1e9)
    return scores.softmax(-1) @ v
`;

  it('the natural bug: real queries and-ed with the future, filled where the result is 0: reported', async () => {
    assert.deepEqual(await findingLines(fill('mask == 0'), 'ATT002'), [10]);
  });

  it('misleading correct form: the same and filled where True (padded query rows left unmasked on purpose): silent', async () => {
    assert.deepEqual(await findingLines(fill('mask'), 'ATT002'), []);
  });

  it('misleading correct form: a band of two window edges (no causal triangle of its own) read as keep: silent', async () => {
    const src = `import torch
import torch.nn.functional as F


def attend(q, k, v, window):
    t = q.size(-2)
    ones = torch.ones((t, t), dtype=torch.bool)
    band = torch.tril(ones) & torch.triu(ones, diagonal=-window)  # (t, t): the last window keys up to the query
    return F.scaled_dot_product_attention(q, k, v, attn_mask=band)
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });

  it('a triangle written into a slice of zeros (cached columns before it) keeps its meaning', async () => {
    const src = `import torch
import torch.nn.functional as F


def causal_mask(length, past_len):
    mask = torch.zeros((length, length + past_len), dtype=torch.bool)  # (L, P + L)
    mask[:, past_len:] = torch.triu(torch.ones((length, length), dtype=torch.bool), diagonal=1)
    return mask[None, None]


def attend(q, k, v, past_len):
    return F.scaled_dot_product_attention(q, k, v, attn_mask=causal_mask(q.size(-2), past_len))


def attend_ok(q, k, v, past_len):
    return F.scaled_dot_product_attention(q, k, v, attn_mask=~causal_mask(q.size(-2), past_len))
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), [12]);
  });

  it('cross-file pair: the bias built in a masks module, a boolean mask filled with -inf in place (still boolean), made float and added', async () => {
    const masks = `import torch


def build_bias(ids, keep):
    t = ids.size(1)
    future = torch.triu(torch.ones((t, t), dtype=torch.bool), diagonal=1)  # (t, t)
    return future[None, None] | (~keep.bool())[:, None, None, :]
`;
    const model = `import torch
import torch.nn.functional as F

from masks import build_bias


def attend(q, k, v, ids, keep):
    bias = build_bias(ids, keep)
    bias = bias.masked_fill(bias, float("-inf")).to(q.dtype)  # masked_fill keeps the boolean dtype
    return F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
`;
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': masks, 'model.py': model }, 'model.py', 'ATT002'), [10]);
    const fixed = model.replace('bias.masked_fill(bias, float("-inf")).to(q.dtype)', 'torch.zeros_like(bias, dtype=q.dtype).masked_fill(bias, float("-inf"))');
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': masks, 'model.py': fixed }, 'model.py', 'ATT002'), []);
  });
});

describe('reg-mask-s36: a triangle placed into the first columns of a wider mask is no causal mask of the own keys', () => {
  // Keys laid out [memory (mem) | new (n)]; the bias is (n, mem + n), added to (B, H, n, mem + n) scores.
  const windowed = (build: string) => `import torch


def window_bias(n, mem):
    ones = torch.ones(n, n)
    future = torch.triu(ones, diagonal=1) * -1e9  # (n, n): the new keys after each query
    bias = torch.cat([torch.zeros(n, mem), future], dim=-1)  # (n, mem + n)
${build}


def attend(q, k, v, mem):
    n = q.size(-2)
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5 + window_bias(n, mem)  # (B, H, n, mem + n)
    return scores.softmax(-1) @ v
`;

  it('misleading correct form: an equal window, the memory slots each query no longer reads added to the first columns: silent', async () => {
    const src = windowed(`    behind = torch.tril(ones, diagonal=-1) * -1e9  # (n, n): memory slots behind each query
    return torch.cat([bias[:, :n] + behind, bias[:, n:]], dim=-1)`);
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });

  it('the natural bug: the same triangle added over the whole bias (the own keys included): reported at the product', async () => {
    const src = windowed(`    behind = torch.tril(ones, diagonal=-1) * -1e9  # (n, n)
    return bias + torch.cat([torch.zeros(n, mem), behind], dim=-1)`);
    assert.deepEqual(await findingLines(src, 'ATT002'), [8]);
  });

  it('a boolean triangle written into the first columns of zeros is not read as the causal mask; into the last ones it is', async () => {
    const src = (cols: string) => `import torch
import torch.nn.functional as F


def causal_mask(n, mem):
    mask = torch.zeros((n, mem + n), dtype=torch.bool)  # (n, mem + n)
    mask[:, ${cols}] = torch.triu(torch.ones((n, n), dtype=torch.bool), diagonal=1)
    return mask


def attend(q, k, v, mem):
    return F.scaled_dot_product_attention(q, k, v, attn_mask=causal_mask(q.size(-2), mem))
`;
    assert.deepEqual(await findingLines(src('mem:'), 'ATT002'), [12]);
    assert.deepEqual(await findingLines(src(':n'), 'ATT002'), []);
  });

  it('cross-file pair: the windowed bias built in another file: silent there and where it is added', async () => {
    const masks = `import torch


def window_bias(n, mem):
    ones = torch.ones(n, n)
    future = torch.triu(ones, diagonal=1) * -1e9  # (n, n)
    mask = torch.cat([torch.zeros(n, mem), future], dim=-1)  # (n, mem + n)
    behind = torch.tril(ones, diagonal=-1) * -1e9
    return torch.cat([mask[:, :n] + behind, mask[:, n:]], dim=-1)
`;
    const model = `from masks import window_bias


def attend(q, k, v, mem):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5 + window_bias(q.size(-2), mem)
    return scores.softmax(-1) @ v
`;
    const files = { 'masks.py': masks, 'model.py': model };
    assert.deepEqual(await workspaceFindingLines(files, 'masks.py', 'ATT002'), []);
    assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT002'), []);
  });
});

describe('reg-mask-s36: an additive mask given to a parameter that reads boolean keep masks', () => {
  // tokens: (B, S); keep: (B, 1, 1, S) 1.0 at real tokens.
  const keras = (built: string) => `import tensorflow as tf
from tensorflow.keras.layers import MultiHeadAttention


class Block(tf.keras.layers.Layer):
    def __init__(self, heads, width):
        super().__init__()
        self.mha = MultiHeadAttention(num_heads=heads, key_dim=width)

    def call(self, x, tokens):
        keep = tf.cast(tokens != 0, tf.float32)[:, None, None, :]  # (B, 1, 1, S)
        mask = ${built}
        return self.mha(x, x, attention_mask=mask)
`;

  it('the natural bug: 0 / -1e9 handed to keras MultiHeadAttention: reported', async () => {
    assert.deepEqual(await findingLines(keras('tf.where(keep == 0, -1e9, 0.0)'), 'ATT002'), [13]);
    assert.deepEqual(await findingLines(keras('(1.0 - keep) * -1e9'), 'ATT002'), [13]);
  });

  it('fixed: the 0/1 keep mask itself: silent', async () => {
    assert.deepEqual(await findingLines(keras('keep'), 'ATT002'), []);
  });

  it('misleading correct form: an additive mask given to a parameter that adds float masks (SDPA): silent', async () => {
    const src = `import torch
import torch.nn.functional as F


def attend(q, k, v, ids, pad_id):
    keep = (ids != pad_id)[:, None, None, :].float()  # (B, 1, 1, S)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=(1.0 - keep) * -1e9)
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });

  it('a subclass of the library layer calling super().call reads masks as the layer does', async () => {
    const src = (built: string) => `import tensorflow as tf
from tensorflow.keras.layers import MultiHeadAttention


class PaddedSelfAttention(MultiHeadAttention):
    def call(self, query, value, key=None, attention_mask=None):
        if attention_mask is not None:
            attention_mask = ${built}
        return super().call(query, value, key=key, attention_mask=attention_mask)
`;
    assert.deepEqual(await findingLines(src('tf.where(attention_mask == 0, -1e9, 0.0)'), 'ATT002'), [9]);
    assert.deepEqual(await findingLines(src('tf.cast(attention_mask, tf.bool)'), 'ATT002'), []);
  });

  it('cross-file pair: the additive mask built in another file and passed to the layer', async () => {
    const masks = `import tensorflow as tf


def padding_bias(tokens):
    keep = tf.cast(tokens != 0, tf.float32)[:, None, None, :]  # (B, 1, 1, S)
    return (1.0 - keep) * -1e9
`;
    const model = `import tensorflow as tf

from masks import padding_bias


class Block(tf.keras.layers.Layer):
    def __init__(self, heads, width):
        super().__init__()
        self.mha = tf.keras.layers.MultiHeadAttention(num_heads=heads, key_dim=width)

    def call(self, x, tokens):
        return self.mha(x, x, attention_mask=padding_bias(tokens))
`;
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': masks, 'model.py': model }, 'model.py', 'ATT002'), [12]);
  });
});

describe("reg-mask-s36: a mask's rows gathered by a sampled index keep their meaning", () => {
  // keep: (N, S) True at real tokens; a batch of B rows sampled for a step.
  const step = (index: string, setup = '') => `import torch


class Encoder(torch.nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.attn = torch.nn.MultiheadAttention(dim, heads, batch_first=True)

    def forward(self, x, ids, batch_size):
        keep = ids != 0  # (N, S): True at real tokens
${setup}        out, _ = self.attn(x, x, x, key_padding_mask=${index})
        return out
`;

  it('the natural bug: the keep mask of a sampled batch handed to key_padding_mask: reported', async () => {
    const setup = '        idx = torch.randint(0, ids.size(0), (batch_size,))\n';
    assert.deepEqual(await findingLines(step('keep[idx]', setup), 'ATT002'), [12]);
    assert.deepEqual(await findingLines(step('keep[idx, :batch_size]', '        idx = torch.randperm(ids.size(0))[:batch_size]\n'), 'ATT002'), [12]);
  });

  it('fixed: inverted before the gather: silent', async () => {
    const setup = '        idx = torch.randint(0, ids.size(0), (batch_size,))\n';
    assert.deepEqual(await findingLines(step('~keep[idx]', setup), 'ATT002'), []);
  });

  it('misleading correct form: the mask indexed by a tensor the code does not show to pick rows (it may flatten): silent', async () => {
    assert.deepEqual(await findingLines(step('keep[sel]', '        sel = self.selector(ids)\n'), 'ATT002'), []);
  });

  it('cross-file pair: the mask built in a tokenizer module, sampled in the training step, read by the model', async () => {
    const tokens = `import torch


def tokenize_all(texts):
    longest = max(len(t) for t in texts)
    tokens = torch.zeros((len(texts), longest), dtype=torch.long)
    mask = torch.zeros((len(texts), longest), dtype=torch.bool)
    for i, text in enumerate(texts):
        ids = torch.tensor([ord(c) for c in text])
        tokens[i, : len(ids)] = ids
        mask[i, : len(ids)] = 1
    return tokens, mask
`;
    const model = `import torch


class Encoder(torch.nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.emb = torch.nn.Embedding(256, dim)
        self.attn = torch.nn.MultiheadAttention(dim, heads, batch_first=True)

    def forward(self, tokens, mask):
        x = self.emb(tokens)
        out, _ = self.attn(x, x, x, key_padding_mask=mask)
        return out
`;
    const train = `import torch

from model import Encoder
from text_tokens import tokenize_all


def train(texts, steps, batch_size):
    tokens, mask = tokenize_all(texts)
    model = Encoder(64, 8)
    for _ in range(steps):
        idx = torch.randint(0, len(tokens), (batch_size,))
        out = model(tokens[idx], mask[idx])
`;
    const files = { 'text_tokens.py': tokens, 'model.py': model, 'train.py': train };
    assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT002'), [12]);
  });
});

describe('reg-mask-s36: a local window joined with causal positions', () => {
  // scores: (B, H, T, T); idx[None, :] indexes the keys j, idx[:, None] the queries i.
  const local = (cond: string) => `import torch


def local_attention(q, k, v, window):
    T = q.size(-2)
    scores = q @ k.transpose(-1, -2) / q.size(-1) ** 0.5  # (B, H, T, T)
    idx = torch.arange(T)
    mask = ${cond}
    scores = scores.masked_fill(~mask[None, None], -1e4)
    return torch.softmax(scores, dim=-1) @ v
`;

  it('the natural bug: the window kept on the future side (j >= i) of the diagonal: reported', async () => {
    assert.deepEqual(await findingLines(local('(idx[None, :] - idx[:, None] < window) & (idx[None, :] >= idx[:, None])'), 'ATT002'), [9]);
  });

  it('fixed: the window on the past side (j <= i): silent', async () => {
    assert.deepEqual(await findingLines(local('(idx[:, None] - idx[None, :] < window) & (idx[None, :] <= idx[:, None])'), 'ATT002'), []);
  });
});
