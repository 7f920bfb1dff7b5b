// Classes from training folders m and n (session 31), written fresh.
//
// 1. A causal mask whose diagonal offset is a parameter the callers pass (`triu(ones(t, S), diagonal=past_length + 1)`
//    with `past_length=0` the default and the cache length at the cached calls, t21n-03-clean): the default is the value
//    of the calls without a cache, not a fixed offset, so it shows no top-left alignment (ATT008). Silent on the
//    parameter, on a local name bound from it and on the keep form `tril(..., diagonal=past_length)` handed to SDPA;
//    the literal `diagonal=1` on keys that include a cache stays reported, here and with the caller in another file.
// 2. `1 - m` handed as it is to a PyTorch mask parameter that adds float masks (`key_padding_mask=(1 - attention_mask)`,
//    t20m-01-mask): PyTorch has no `-` for boolean tensors, so `1 - m` is a number tensor, added to the scores (0 or 1:
//    nothing masked) or rejected when integer (ATT002). Decided from the arithmetic and the receiver's convention, not
//    from the name. Silent on `(1 - m).bool()`, `m == 0`, an additive `(1.0 - m) * -1e9`, `(1 - m) > 0`, and when the
//    operand is known boolean or integer (legacy uint8 masks; PyTorch itself raises on `1 - bool`).
// 3. Attention scores cut to a triangle and their zeros made -inf (`weights = torch.triu(weights)` then
//    `torch.where(weights != 0, weights, -inf)`, t21n-02-mask): `!= 0` of the cut scores is the triangle kept, and triu
//    keeps each query's future keys (ATT002, as triu of ones read as a keep mask). Silent on tril (the past and the
//    key itself), also in the `== 0` / masked_fill forms; `from numpy import inf` is numpy's inf, as `np.inf` is.
// 4. A softmax over the last axis of scores whose shape comment marks a size (`score = Dot(axes=[2, 2])([s, t])  #
//    (B, S*, 1)`, t21n-06-softmax, a Keras Luong layer with `Activation('softmax')`): the mark is a variant of a size
//    (`S*`, `S'`), so the comment states the shape as `(B, S, 1)` does, and the normalised axis has length 1 (ATT001).
//    Silent when the comment puts the sequence last (`(B, hops, S*)`) and on the softmax over axis 1.
// 5. TF1 multi-head code that stacks the heads on the batch axis (`tf.concat(tf.split(q, num_heads, axis=2), axis=0)`,
//    t21n-05-scale) and divides by the projection's whole width (`tf.constant(num_units ** 0.5)` after
//    `tf.layers.dense(inputs, num_units)`): equal pieces of a projection's width joined back along the batch axis are
//    its heads, so the width is all heads' (ATT004). The pieces TF1 code is read through: functional
//    `tf.layers.dense(x, units)`, `x.get_shape().as_list()`, `tf.split(..., axis=)`, padding zeroed with
//    `tf.where(keep, q, tf.zeros_like(q))`, a root of a name written out (`tf.constant(n ** 0.5)`, `tf.sqrt(n)`) and
//    `[B x M x E]` shapes in docstrings. Silent on the head's width, on pieces of the sequence axis stacked on the batch
//    (blocks, not heads), and with one head; the torch form `torch.cat(torch.split(q, d_head, dim=-1), dim=0)` alike.
import { strict as assert } from 'node:assert';
import { applyFixes, findingLines, linter, workspaceFindingLines } from './helpers';

const CACHED = (diag: string, bind = ''): string => `import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.h = n_heads
        self.dh = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x, kv_cache=None, past_length=0):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        if kv_cache is not None:
            k = torch.cat([kv_cache[0], k], dim=2)
            v = torch.cat([kv_cache[1], v], dim=2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.dh)${bind}
        future = torch.triu(torch.ones(t, k.size(2), device=x.device), diagonal=${diag}).bool()
        scores = scores.masked_fill(future, float("-inf"))
        out = F.softmax(scores, dim=-1) @ v
        return self.out(out.transpose(1, 2).reshape(b, t, d)), (k, v)
`;

const GENERATE = `

@torch.no_grad()
def generate(layer, prompt, steps):
    y, cache = layer(prompt)
    x = y[:, -1:]
    for _ in range(steps):
        x, cache = layer(x, kv_cache=cache, past_length=cache[0].size(2))
    return x
`;

const SDPA_KEEP = (diag: string): string => `import torch
import torch.nn as nn
import torch.nn.functional as F


class LatentAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.h = n_heads
        self.dh = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x, kv_cache=None, past_length=0):
        b, s, d = x.shape
        q, k, v = self.qkv(x).view(b, s, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        if kv_cache is not None:
            k = torch.cat([kv_cache[0], k], dim=2)
            v = torch.cat([kv_cache[1], v], dim=2)
        keep = torch.tril(torch.ones(s, k.size(2), dtype=torch.bool, device=x.device), diagonal=${diag})
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
        return out.transpose(1, 2).reshape(b, s, d), (k, v)
`;

describe('trainmn31: a causal diagonal offset passed by the caller (the cache length)', () => {
  it('is silent on triu(ones(t, S), diagonal=past_length + 1) with past_length a parameter', async () => {
    assert.deepEqual(await findingLines(CACHED('past_length + 1') + GENERATE, 'ATT008'), []);
    assert.deepEqual(await findingLines(CACHED('past_length + 1'), 'ATT008'), []);
  });
  it('is silent on a local name bound from the parameter', async () => {
    assert.deepEqual(await findingLines(CACHED('offset + 1', '\n        offset = past_length') + GENERATE, 'ATT008'), []);
  });
  it('still reports the literal diagonal=1 on keys that include the cache', async () => {
    assert.deepEqual(await findingLines(CACHED('1') + GENERATE, 'ATT008'), [24]);
  });
  it('is silent on the keep form tril(..., diagonal=past_length) given to SDPA, and reports diagonal=0', async () => {
    assert.deepEqual(await findingLines(SDPA_KEEP('past_length'), 'ATT008'), []);
    assert.deepEqual(await findingLines(SDPA_KEEP('0'), 'ATT008'), [20]);
  });
  it('judges the module as another file calls it: silent on the parameter, reported on the literal', async () => {
    const caller = `import torch

from kv.attn import CachedAttention


@torch.no_grad()
def generate(layer: CachedAttention, prompt, steps):
    y, cache = layer(prompt)
    x = y[:, -1:]
    for _ in range(steps):
        x, cache = layer(x, kv_cache=cache, past_length=cache[0].size(2))
    return x
`;
    const files = (diag: string): Record<string, string> => ({ 'kv/__init__.py': '', 'kv/attn.py': CACHED(diag), 'kv/generate.py': caller });
    assert.deepEqual(await workspaceFindingLines(files('past_length + 1'), 'kv/attn.py', 'ATT008'), []);
    assert.deepEqual(await workspaceFindingLines(files('1'), 'kv/attn.py', 'ATT008'), [24]);
  });
});

const LAYER = (pad: string, sdpa: string): string => `import torch
import torch.nn as nn
import torch.nn.functional as F


class EncoderLayer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, h, batch_first=True)
        self.norm = nn.LayerNorm(d)

    def forward(self, x, attention_mask=None):
        # attention_mask: (batch, seq), 1 for tokens and 0 for padding
        pad = ${pad} if attention_mask is not None else None
        out, _ = self.attn(x, x, x, key_padding_mask=pad)
        return self.norm(x + out)


def sdpa(q, k, v, attention_mask):
    return F.scaled_dot_product_attention(q, k, v, attn_mask=${sdpa})
`;

describe('trainmn31: 1 - m given where PyTorch adds a float mask', () => {
  it('reports (1 - attention_mask) as key_padding_mask and as SDPA attn_mask', async () => {
    assert.deepEqual(await findingLines(LAYER('(1 - attention_mask)', '(1 - attention_mask)[:, None, None, :]'), 'ATT002'), [15, 20]);
  });
  it('reports it passed inline, with the .bool() fix at the flip', async () => {
    const src = `import torch.nn as nn


class Layer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, x, attention_mask):
        out, _ = self.attn(x, x, x, key_padding_mask=(1 - attention_mask))
        return out
`;
    const findings = (await linter()).lintPython(src).filter((f) => f.code === 'ATT002');
    assert.deepEqual(
      findings.map((f) => f.line),
      [10],
    );
    assert.match(findings[0]?.message ?? '', /number tensor/);
    assert.match(applyFixes(src, findings), /key_padding_mask=\(\(1 - attention_mask\)\.bool\(\)\)/);
  });
  it('reports (1 - m).float() without a fix', async () => {
    const findings = (await linter())
      .lintPython(LAYER('(1 - attention_mask).float()', 'attention_mask[:, None, None, :].bool()'))
      .filter((f) => f.code === 'ATT002');
    assert.deepEqual(
      findings.map((f) => [f.line, f.fix === undefined]),
      [[15, true]],
    );
  });
  it('is silent on the boolean, compared and additive forms', async () => {
    assert.deepEqual(await findingLines(LAYER('(1 - attention_mask).bool()', 'attention_mask[:, None, None, :].bool()'), 'ATT002'), []);
    assert.deepEqual(await findingLines(LAYER('attention_mask == 0', '(1.0 - attention_mask)[:, None, None, :] * -1e9'), 'ATT002'), []);
    assert.deepEqual(await findingLines(LAYER('(1 - attention_mask) > 0', '(1 - attention_mask[:, None, None, :]) < 1'), 'ATT002'), []);
  });
  it('is silent when the operand is known boolean or integer (an error PyTorch raises, or a legacy uint8 mask)', async () => {
    assert.deepEqual(await findingLines(LAYER('1 - attention_mask.long()', '(1 - attention_mask.bool())[:, None, None, :]'), 'ATT002'), []);
  });
  it('judges a layer of another file with the mask its caller flips', async () => {
    const layer = `import torch.nn as nn


class Layer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, x, pad):
        out, _ = self.attn(x, x, x, key_padding_mask=pad)
        return out
`;
    const model = (flip: string): string => `import torch.nn as nn

from enc.layer import Layer


class Encoder(nn.Module):
    def __init__(self, vocab, d, h):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.layer = Layer(d, h)

    def forward(self, ids, attention_mask):
        return self.layer(self.embed(ids), ${flip})
`;
    const files = (flip: string): Record<string, string> => ({ 'enc/__init__.py': '', 'enc/layer.py': layer, 'enc/model.py': model(flip) });
    assert.deepEqual(await workspaceFindingLines(files('1 - (ids != 0).float()'), 'enc/layer.py', 'ATT002'), [10]);
    assert.deepEqual(await workspaceFindingLines(files('ids == 0'), 'enc/layer.py', 'ATT002'), []);
  });
});

const CUT = (tri: string, fill: string, inf = 'float("-inf")', head = ''): string => `import torch
import torch.nn as nn
${head}

class ConvAttention(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.q = nn.Conv2d(c_in, c_out, kernel_size=1)
        self.k = nn.Conv2d(c_in, c_out, kernel_size=1)
        self.v = nn.Conv2d(c_in, c_out, kernel_size=1)

    def forward(self, x, causal=False):
        b = x.size(0)
        q = self.q(x).reshape(b, -1, x.size(-1))
        k = self.k(x).reshape(b, -1, x.size(-1))
        v = self.v(x).reshape(b, -1, x.size(-1))
        scores = torch.einsum("bdt,bds->bts", q, k) / q.size(1) ** 0.5
        if causal:
            scores = torch.${tri}(scores)
            blocked = torch.full_like(scores, ${inf})
            scores = ${fill}
        probs = scores.softmax(dim=-1)
        return torch.einsum("bts,bds->bdt", probs, v)
`;

describe('trainmn31: scores cut to a triangle whose zeros are made -inf', () => {
  const WHERE = 'torch.where(scores != 0, scores, blocked)';
  const FILL = "scores.masked_fill(scores == 0, float('-inf'))";
  it('reports triu (the future kept) in the where and masked_fill forms', async () => {
    assert.deepEqual(await findingLines(CUT('triu', WHERE), 'ATT002'), [21]);
    assert.deepEqual(await findingLines(CUT('triu', FILL), 'ATT002'), [21]);
    assert.deepEqual(await findingLines(CUT('triu', 'torch.where(scores == 0, blocked, scores)'), 'ATT002'), [21]);
  });
  it('is silent on tril (the past and the key itself)', async () => {
    assert.deepEqual(await findingLines(CUT('tril', WHERE), 'ATT002'), []);
    assert.deepEqual(await findingLines(CUT('tril', FILL), 'ATT002'), []);
  });
  it('reads from numpy import inf as numpy.inf', async () => {
    assert.deepEqual(await findingLines(CUT('triu', WHERE, 'float(-inf)', 'from numpy import inf\n'), 'ATT002'), [22]);
    assert.deepEqual(await findingLines(CUT('tril', WHERE, 'float(-inf)', 'from numpy import inf\n'), 'ATT002'), []);
  });
  it('reads nothing from scores changed after the cut', async () => {
    assert.deepEqual(await findingLines(CUT('triu', '(scores + 1).masked_fill(scores + 1 == 0, -1e9)'), 'ATT002'), []);
  });
  it('judges the block as a model of another file calls it with causal=True', async () => {
    const model = `import torch.nn as nn

from net.blocks import ConvAttention


class CausalNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = ConvAttention(8, 8)

    def forward(self, x):
        return self.attn(x, causal=True)
`;
    const files = (tri: string): Record<string, string> => ({ 'net/__init__.py': '', 'net/blocks.py': CUT(tri, WHERE), 'net/model.py': model });
    assert.deepEqual(await workspaceFindingLines(files('triu'), 'net/blocks.py', 'ATT002'), [21]);
    assert.deepEqual(await workspaceFindingLines(files('tril'), 'net/blocks.py', 'ATT002'), []);
  });
});

const LUONG = (shape: string, softmax = 'Activation("softmax")(score)'): string => `import tensorflow as tf
from tensorflow.keras.layers import Activation, Dot, Layer


class LuongAttention(Layer):
    def call(self, inputs):
        source_states = inputs[0]                                   # (B, S*, H)
        target_state = tf.expand_dims(inputs[1], axis=1)            # (B, 1, H)
        score = Dot(axes=[2, 2])([source_states, target_state])     # ${shape}
        weights = ${softmax}
        return tf.reduce_sum(source_states * weights, axis=1)
`;

describe("trainmn31: shape comments whose sizes carry a mark (S*, S')", () => {
  it("reports a softmax over a last axis of length 1 stated as (B, S*, 1) or (B, S', 1)", async () => {
    assert.deepEqual(await findingLines(LUONG('(B, S*, 1)'), 'ATT001'), [10]);
    assert.deepEqual(await findingLines(LUONG("(B, S', 1)"), 'ATT001'), [10]);
  });
  it('is silent over the sequence axis, and when the sequence is last', async () => {
    assert.deepEqual(await findingLines(LUONG('(B, S*, 1)', 'tf.nn.softmax(score, axis=1)'), 'ATT001'), []);
    assert.deepEqual(await findingLines(LUONG('(B, 1, S*)'), 'ATT001'), []);
  });
  it('still reads a product written in the comment as before', async () => {
    assert.deepEqual(await findingLines(LUONG('(B, S * 2, 1)'), 'ATT001'), [10]);
  });
});

const TF1 = (scale: string, opts: { split?: string; zero?: boolean } = {}): string => `import tensorflow as tf


def multi_head_attention(inputs, num_heads):
    """inputs: [B x M x E] -> [B x M x E]"""
    num_units = inputs.get_shape().as_list()[-1]
    queries = tf.layers.dense(inputs, num_units, activation=tf.tanh)
    keys = tf.layers.dense(inputs, num_units, activation=tf.tanh)
    values = tf.layers.dense(inputs, num_units, activation=tf.tanh)
    ${opts.zero ? 'queries = tf.where(tf.not_equal(queries, 0.0), queries, tf.zeros_like(queries))' : 'pass'}
    queries = tf.concat(tf.split(queries, num_heads, axis=${opts.split ?? '2'}), axis=0)
    keys = tf.concat(tf.split(keys, num_heads, axis=${opts.split ?? '2'}), axis=0)
    values = tf.concat(tf.split(values, num_heads, axis=${opts.split ?? '2'}), axis=0)
    scores = tf.matmul(queries, tf.transpose(keys, [0, 2, 1]))
    scores = tf.math.divide(scores, ${scale})
    weights = tf.nn.softmax(scores)
    out = tf.matmul(weights, values)
    return tf.concat(tf.split(out, num_heads, axis=0), axis=2)
`;

describe('trainmn31: TF1 heads stacked on the batch axis, scaled by the whole width', () => {
  it('reports num_units ** 0.5 after tf.concat(tf.split(q, num_heads, axis=2), axis=0)', async () => {
    assert.deepEqual(await findingLines(TF1('tf.constant(num_units ** 0.5)'), 'ATT004'), [15]);
    assert.deepEqual(await findingLines(TF1('tf.sqrt(tf.cast(num_units, tf.float32))'), 'ATT004'), [15]);
    assert.deepEqual(await findingLines(TF1('tf.constant(num_units ** 0.5)', { zero: true }), 'ATT004'), [15]);
  });
  it("is silent on the head's width", async () => {
    assert.deepEqual(await findingLines(TF1('tf.constant((num_units / num_heads) ** 0.5)'), 'ATT004'), []);
    assert.deepEqual(await findingLines(TF1('tf.sqrt(float(num_units // num_heads))'), 'ATT004'), []);
  });
  it('is silent when the pieces are not of the width (blocks of the sequence stacked on the batch)', async () => {
    assert.deepEqual(await findingLines(TF1('tf.constant(num_units ** 0.5)', { split: '1' }), 'ATT004'), []);
  });
  it('is silent with one head (no split)', async () => {
    const one = TF1('tf.constant(num_units ** 0.5)').replace(/ {4}(queries|keys|values) = tf\.concat\(tf\.split\([^\n]*\n/g, '');
    assert.deepEqual(await findingLines(one, 'ATT004'), []);
  });
  it('reads tf.layers.dense(x, 1) as a projection to one unit', async () => {
    const src = `import tensorflow as tf


def pool(states):
    """states: [B x T x H]"""
    energy = tf.layers.dense(states, 1, activation=tf.tanh)
    alpha = tf.nn.softmax(energy)
    return tf.reduce_sum(alpha * states, axis=1)
`;
    assert.deepEqual(await findingLines(src, 'ATT001'), [7]);
    assert.deepEqual(await findingLines(src.replace('tf.nn.softmax(energy)', 'tf.nn.softmax(energy, axis=1)'), 'ATT001'), []);
  });
  it('reads torch.cat(torch.split(q, d_head, dim=-1), dim=0) the same way', async () => {
    const src = (scale: string): string => `import math

import torch
import torch.nn as nn


class StackedHeads(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.d_model = d_model
        self.d_head = d_model // n_heads
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)

    def forward(self, x):
        q = torch.cat(torch.split(self.q(x), self.d_head, dim=-1), dim=0)
        k = torch.cat(torch.split(self.k(x), self.d_head, dim=-1), dim=0)
        v = torch.cat(torch.split(self.v(x), self.d_head, dim=-1), dim=0)
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(${scale})
        out = torch.bmm(torch.softmax(scores, dim=-1), v)
        return torch.cat(torch.split(out, x.size(0), dim=0), dim=-1)
`;
    assert.deepEqual(await findingLines(src('self.d_model'), 'ATT004'), [20]);
    assert.deepEqual(await findingLines(src('self.d_head'), 'ATT004'), []);
  });
});
