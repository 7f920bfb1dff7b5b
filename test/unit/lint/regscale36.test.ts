// Session 36 (reg-scale-s36): classes behind the regression batches' false findings of ATT004, ATT001 and ATT003.
//
// 1. A size named like a head count (`h`, `head`) that the code makes each head's width: `h = d // self.n_head` (the
//    value is a head width, whatever the name) or the size after the head axis of a view that already has one
//    (`view(B, N, 3, self.heads, self.head)`). Read off the queries' last axis (`d_k = q.shape[-1]`) it is the size the
//    scores sum over, not "the number of heads" (ATT004 false finding, b13-02).
// 2. The softmax's backward pass written out (`dS = P * (dP - (P * dP).sum(-1, keepdims=True))`, NumPy transformers
//    with hand-written gradients): a gradient of the scores, not weights. Its chain-rule `/ sqrt(d)` is no scale after
//    softmax (ATT004) and `dS.T @ Q` no product over the query axis (ATT001) (b27-09).
// 3. ATT003 sits where the scores enter the softmax (test/lint-corpus/README.md): for scores formed by a caller and
//    handed to a softmax helper of the file (`softmax_rows(scores)`, exp / sum inside), the argument of that call, not
//    the product (b28-05).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const SPLIT_BY_LOCAL = (scale: string): string => `import math

import torch
import torch.nn as nn


class Attn(nn.Module):
    def __init__(self, dim, n_head):
        super().__init__()
        self.n_head = n_head
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)

    def forward(self, x):
        b, n, d = x.shape
        h = d // self.n_head
        q = self.q(x).view(b, n, self.n_head, h).transpose(1, 2)  # (b, n_head, n, h)
        k = self.k(x).view(b, n, self.n_head, h).transpose(1, 2)
        s = q @ k.transpose(-2, -1) / ${scale}
        return s.softmax(-1)
`;

const CORE = `import math

import torch
import torch.nn as nn


class Core(nn.Module):
    def forward(self, q, k, v):
        d = q.shape[-1]
        w = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d), dim=-1)
        return w @ v
`;
const HEAD_PARAM = `

class Attn(nn.Module):
    def __init__(self, dim, heads, head):
        super().__init__()
        self.heads, self.head = heads, head
        self.qkv = nn.Linear(dim, 3 * heads * head)
        self.core = Core()

    def forward(self, x):
        B, N, _ = x.shape
        # (3, B, heads, N, head)
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, self.head).permute(2, 0, 3, 1, 4)
        return self.core(q, k, v)
`;

describe('regscale36: a head-count name the code makes each head width (ATT004)', () => {
  it('is silent on sqrt of the queries last axis when its view size is h = d // n_head', async () => {
    assert.deepEqual(await findingLines(SPLIT_BY_LOCAL('math.sqrt(q.size(-1))'), 'ATT004'), []);
  });
  it('still reports sqrt of the head axis read off the same queries (the bug)', async () => {
    assert.deepEqual(await findingLines(SPLIT_BY_LOCAL('math.sqrt(q.size(1))'), 'ATT004'), [19]);
  });
  it('still reports sqrt of the head count itself', async () => {
    assert.deepEqual(await findingLines(SPLIT_BY_LOCAL('math.sqrt(self.n_head)'), 'ATT004'), [19]);
  });
  it('is silent on a shared core reading the last axis of a view whose size after the head axis is named head', async () => {
    assert.deepEqual(await findingLines(CORE + HEAD_PARAM, 'ATT004'), []);
  });
  it('is silent across files: the core in one file, the view in the module that calls it', async () => {
    const files = { 'core.py': CORE, 'attn.py': `import torch.nn as nn\n\nfrom core import Core\n${HEAD_PARAM}` };
    assert.deepEqual(await workspaceFindingLines(files, 'core.py', 'ATT004'), []);
    assert.deepEqual(await workspaceFindingLines(files, 'attn.py', 'ATT004'), []);
  });
  it('still reports a last axis that is the head axis when the width comes before it (view(B, N, d_head, n_heads))', async () => {
    const src = `import math

import torch


def attend(x, wq, wk, n_heads, d_head):
    B, N, _ = x.shape
    q = (x @ wq).view(B, N, d_head, n_heads).permute(0, 3, 1, 2)
    k = (x @ wk).view(B, N, d_head, n_heads).permute(0, 3, 1, 2)
    h = (x @ wq).view(B, N, d_head, n_heads).shape[-1]
    s = q @ k.transpose(-2, -1) / math.sqrt(h)
    return torch.softmax(s, dim=-1)
`;
    assert.deepEqual(await findingLines(src, 'ATT004'), [11]);
  });
});

const NUMPY_HEAD = (backward: string): string => `import numpy as np


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


class Head:
    def __init__(self, d):
        self.d = d

    def forward(self, Q, K, V):
        # Q, K, V: (L, d)
        self.P = softmax(Q @ K.T / np.sqrt(self.d))
        self.Q, self.K, self.V = Q, K, V
        return self.P @ self.V

    def backward(self, dout):
        P = self.P
${backward}
        dS = dS / np.sqrt(self.d)
        dQ = dS @ self.K
        dK = dS.T @ self.Q
        return dQ, dK
`;

describe('regscale36: the softmax backward written out is a gradient of the scores (ATT004, ATT001)', () => {
  const vjp = '        dP = dout @ self.V.T\n        dS = P * (dP - (P * dP).sum(axis=-1, keepdims=True))';
  it('is silent on the chain-rule scale and the transposed gradient product', async () => {
    const src = NUMPY_HEAD(vjp);
    assert.deepEqual(await findingLines(src, 'ATT004'), []);
    assert.deepEqual(await findingLines(src, 'ATT001'), []);
  });
  it('is silent on the np.sum form', async () => {
    const src = NUMPY_HEAD('        dP = dout @ self.V.T\n        dS = P * (dP - np.sum(P * dP, axis=-1, keepdims=True))');
    assert.deepEqual(await findingLines(src, 'ATT004'), []);
    assert.deepEqual(await findingLines(src, 'ATT001'), []);
  });
  it('still reports the weights scaled after softmax when they are only multiplied by something else', async () => {
    const src = NUMPY_HEAD('        dS = P * (dout - dout.mean(axis=-1, keepdims=True))');
    assert.deepEqual(await findingLines(src, 'ATT004'), [22]);
  });
  it('still reports a forward pass that scales its weights after the softmax (the bug)', async () => {
    const src = `import numpy as np


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def attend(Q, K, V):
    P = softmax(Q @ K.T)
    P = P / np.sqrt(Q.shape[-1])
    return P @ V
`;
    assert.deepEqual(await findingLines(src, 'ATT004'), [11]);
  });
});

const SOFTMAX_HELPER = (scores: string): string => `import numpy as np


def softmax_rows(z):
    e = np.exp(z)
    return e / np.expand_dims(np.sum(e, axis=-1), -1)


Q = np.random.rand(8, 4, 32)
K = np.random.rand(8, 4, 32)
V = np.random.rand(8, 4, 32)
scores = ${scores}
w = softmax_rows(scores)
out = w @ V
`;

describe('regscale36: ATT003 at the call handing unscaled scores to a softmax helper', () => {
  it('reports at the argument of the helper call, where the scores enter the softmax', async () => {
    assert.deepEqual(await findingLines(SOFTMAX_HELPER('Q @ np.transpose(K, [0, 2, 1])'), 'ATT003'), [13]);
  });
  it('is silent on the scaled scores', async () => {
    assert.deepEqual(await findingLines(SOFTMAX_HELPER('Q @ np.transpose(K, [0, 2, 1]) / np.sqrt(32)'), 'ATT003'), []);
  });
  it('reports at the keyword argument when the scores are passed by name', async () => {
    const src = SOFTMAX_HELPER('Q @ np.transpose(K, [0, 2, 1])').replace('softmax_rows(scores)', 'softmax_rows(z=scores)');
    assert.deepEqual(await findingLines(src, 'ATT003'), [13]);
  });
  it('still reports at the product when the scores are formed and normalised in one function', async () => {
    const src = `import numpy as np


def attention(Q, K, V):
    s = Q @ K.T
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ V


def head(x, Wq, Wk, Wv):
    return attention(x @ Wq, x @ Wk, x @ Wv)
`;
    assert.deepEqual(await findingLines(src, 'ATT003'), [5]);
  });
});

// 4. A sqrt of the head width multiplied into q on its way to a fused kernel with its default 1/sqrt(E), alone: the two
//    cancel and the kernel runs unscaled, as with `scale=1.0`. Where the code says unscaled attention is meant (a test's
//    reference that must match unscaled attention within a tolerance, unittest's `assertLess(diff, 5e-5)` included),
//    it is no wrong scale (rescan: TheApeMachine tests/test_decoupled_scores.py).
const SDPA_UNIT = (fn: string, check: string): string => `import math
import unittest

import torch
import torch.nn.functional as F


class TestKernel(unittest.TestCase):
    def ${fn}(self):
        q = torch.randn(1, 2, 3, 16)  # (B, H, T, d)
        k = torch.randn(1, 2, 5, 16)
        v = torch.randn(1, 2, 5, 8)
        dk = q.size(-1)
        out = F.scaled_dot_product_attention(q * math.sqrt(dk), k, v)
        ref = torch.softmax(q @ k.transpose(-2, -1), dim=-1) @ v
${check}
`;

describe('regscale36: sqrt(E) cancelling a kernel default in a test reference (ATT004)', () => {
  it('is silent in a test that holds the difference under a tolerance with assertLess', async () => {
    const src = SDPA_UNIT('test_unit_scale', '        self.assertLess(float((out - ref).abs().max()), 5e-5)');
    assert.deepEqual(await findingLines(src, 'ATT004'), []);
  });
  it('is silent with assertAlmostEqual', async () => {
    const src = SDPA_UNIT('test_unit_scale', '        self.assertAlmostEqual(float((out - ref).abs().max()), 0.0, places=4)');
    assert.deepEqual(await findingLines(src, 'ATT004'), []);
  });
  it('still reports it where nothing compares the kernel with unscaled attention', async () => {
    const src = SDPA_UNIT('test_unit_scale', '        self.assertEqual(out.shape, ref.shape)');
    assert.deepEqual(await findingLines(src, 'ATT004'), [14]);
  });
  it('still reports it in a model forward (no test)', async () => {
    const src = `import math

import torch.nn as nn
import torch.nn.functional as F


class Attn(nn.Module):
    def forward(self, q, k, v):
        # q, k, v: (B, H, T, d)
        return F.scaled_dot_product_attention(q * math.sqrt(q.size(-1)), k, v)
`;
    assert.deepEqual(await findingLines(src, 'ATT004'), [10]);
  });
});

// 5. An attribute of the class forming the scores, bound to a value the evaluator cannot follow (`self.d_model =
//    settings.get("d_model")`), under a root: the same field as the query projection's input width
//    (`nn.Linear(self.d_model, self.d_qk)`, narrowing): the width going into the projection (b21-03).
const SETTINGS_HEAD = (scale: string, out = 'self.d_qk'): string => `import math

import torch
from torch import nn


class Head(nn.Module):
    def __init__(self, settings):
        super().__init__()
        self.d_model = settings.get("d_model")
        self.d_qk = settings.get("d_qk")
        self.WQ = nn.Linear(self.d_model, ${out})
        self.WK = nn.Linear(self.d_model, ${out})

    def forward(self, x):
        Q = self.WQ(x)  # (B, T, d_qk)
        K = self.WK(x)
        return torch.softmax(torch.bmm(Q, K.transpose(1, 2)) / ${scale}, dim=-1)
`;

describe('regscale36: a class attribute under a root that is the query projection input width (ATT004)', () => {
  it('reports sqrt(self.d_model) on the scores of a projection narrowing d_model to d_qk', async () => {
    assert.deepEqual(await findingLines(SETTINGS_HEAD('math.sqrt(self.d_model)'), 'ATT004'), [18]);
  });
  it('is silent on sqrt(self.d_qk), the width the scores sum over', async () => {
    assert.deepEqual(await findingLines(SETTINGS_HEAD('math.sqrt(self.d_qk)'), 'ATT004'), []);
  });
  it('is silent on one head as wide as its input (nn.Linear(self.d_model, self.d_model))', async () => {
    assert.deepEqual(await findingLines(SETTINGS_HEAD('math.sqrt(self.d_model)', 'self.d_model'), 'ATT004'), []);
  });
  it('reports it with the settings class in another file', async () => {
    const files = {
      'settings.py':
        'class Settings:\n    def __init__(self, values):\n        self.values = dict(values)\n\n    def get(self, key):\n        return self.values[key]\n',
      'head.py': SETTINGS_HEAD('math.sqrt(self.d_model)').replace('from torch import nn\n', 'from torch import nn\n\nfrom settings import Settings\n'),
    };
    assert.deepEqual(await workspaceFindingLines(files, 'head.py', 'ATT004'), [20]);
  });
});

// 6. A learned weight drawn with its sizes in a tuple bound to a name (`shape = (embedding_dim, head_size)` then
//    `Parameter(torch.randn(shape) * 0.02)`): read as written there, so `x @ self.Q` is a projection of x narrowing it
//    and `/ x.shape[-1]` divides by the input width itself (b21-12).
const PARAM_HEAD = (shapeLine: string, scale: string): string => `import math

import torch
import torch.nn as nn
from torch.nn.parameter import Parameter


class SelfAttention(nn.Module):
    def __init__(self, embedding_dim, num_heads):
        super().__init__()
        head_size = embedding_dim // num_heads
        ${shapeLine}
        self.Q = Parameter(torch.randn(shape) * 0.02)
        self.K = Parameter(torch.randn(shape) * 0.02)

    def forward(self, x):
        # x: (batch, seq, embedding_dim)
        q = x @ self.Q
        k = x @ self.K
        return torch.softmax(q @ k.transpose(1, 2) / ${scale}, dim=-1)
`;

describe('regscale36: a weight drawn from a shape tuple bound to a name is a projection (ATT004)', () => {
  it('reports the scores divided by the input width itself', async () => {
    assert.deepEqual(await findingLines(PARAM_HEAD('shape = (embedding_dim, head_size)', 'x.shape[-1]'), 'ATT004'), [20]);
  });
  it('is silent on sqrt of the keys width', async () => {
    assert.deepEqual(await findingLines(PARAM_HEAD('shape = (embedding_dim, head_size)', 'math.sqrt(k.shape[-1])'), 'ATT004'), []);
  });
  it('is silent on sqrt of the input width when the weight keeps it (one head as wide as its input)', async () => {
    assert.deepEqual(await findingLines(PARAM_HEAD('shape = (embedding_dim, embedding_dim)', 'math.sqrt(x.shape[-1])'), 'ATT004'), []);
  });
  it('is silent when the name is bound twice (the sizes are not known)', async () => {
    const line = 'shape = (embedding_dim, head_size)\n        if num_heads == 1:\n            shape = (embedding_dim, embedding_dim)';
    assert.deepEqual(await findingLines(PARAM_HEAD(line, 'math.sqrt(x.shape[-1])'), 'ATT004'), []);
  });
});

// 7. Scores of rank 5 (grouped-query attention laid out `(B, kv_heads, group, T, S)`) are per-head scores as rank 4 ones
//    are: a model width the code divides by the head count is no scale for them (b22-11).
const GQA = (scale: string, split = 'self.head_dim = hidden_dim // num_heads'): string => `import torch
import torch.nn as nn


class GQA(nn.Module):
    def __init__(self, hidden_dim, groups=2, num_heads=16):
        super().__init__()
        self.W_Q = nn.Linear(hidden_dim, hidden_dim, bias=False)
        self.W_K = nn.Linear(hidden_dim, hidden_dim // groups, bias=False)
        self.num_heads, self.groups = num_heads, groups
        ${split}

    def forward(self, x):
        b, t, hidden_dim = x.shape
        q = self.W_Q(x).view(b, t, self.num_heads // self.groups, self.groups, -1).permute(0, 2, 3, 1, 4)
        k = self.W_K(x).view(b, t, self.num_heads // self.groups, 1, -1).permute(0, 2, 3, 4, 1)
        scores = q @ k  # (b, kv_heads, groups, t, t)
        return torch.softmax(scores / ${scale}, dim=-1)
`;

describe('regscale36: rank-5 grouped-query scores are per-head scores (ATT004)', () => {
  it('reports the model width the code splits into heads', async () => {
    assert.deepEqual(await findingLines(GQA('hidden_dim**0.5'), 'ATT004'), [18]);
  });
  it('is silent on the head width', async () => {
    assert.deepEqual(await findingLines(GQA('self.head_dim**0.5'), 'ATT004'), []);
  });
  it('reports the input width read off x without any division by the head count: the view shows the split', async () => {
    assert.deepEqual(await findingLines(GQA('hidden_dim**0.5', 'self.head_dim = 64'), 'ATT004'), [18]);
  });
  it('is silent on rank-5 scores whose third axis is no head axis and whose width is one head (the input kept whole)', async () => {
    const src = GQA('hidden_dim**0.5').replace(
      'q = self.W_Q(x).view(b, t, self.num_heads // self.groups, self.groups, -1).permute(0, 2, 3, 1, 4)\n        k = self.W_K(x).view(b, t, self.num_heads // self.groups, 1, -1).permute(0, 2, 3, 4, 1)',
      'q = self.W_Q(x)[:, None, None]\n        k = self.W_Q(x)[:, None, None].transpose(-2, -1)',
    );
    assert.deepEqual(await findingLines(src, 'ATT004'), []);
  });
});

// 8. A size read off the keys' or the values' sequence axis (`keys.shape[-2]` of keys turned by `transpose(2, 3)` for the
//    product, `tf.shape(value)[1]` of the values the weights are multiplied with): the number of keys, a length, as the
//    query axis read off the queries already is (t30w-06, t31x-02).
const KEYS_READ = (scale: string): string => `import torch
import torch.nn as nn


class MHA(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads, self.hd = heads, d // heads
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)

    def forward(self, x, v):
        b, t, _ = x.shape
        queries = self.q(x).view(b, t, self.heads, self.hd).transpose(1, 2)  # (b, heads, t, hd)
        keys = self.k(x).view(b, t, self.heads, self.hd).transpose(1, 2)
        scores = queries @ keys.transpose(2, 3)
        return torch.softmax(scores / ${scale}, dim=-1) @ v
`;
const TF_VALUES = (scale: string): string => `import tensorflow as tf


class Attention(tf.keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.W_query = tf.keras.layers.Dense(units)
        self.W_key = tf.keras.layers.Dense(units)
        self.W_value = tf.keras.layers.Dense(units)

    def call(self, query, value):
        query = self.W_query(query)  # (batch, time_q, units)
        key = self.W_key(value)  # (batch, time_k, units)
        value = self.W_value(value)  # (batch, time_k, units)
        score = tf.matmul(query, key, transpose_b=True)
        score = score / tf.math.sqrt(tf.cast(${scale}, tf.float32))
        return tf.matmul(tf.nn.softmax(score, axis=-1), value)
`;

describe('regscale36: a length read off the keys or the values is the number of keys (ATT004)', () => {
  it('reports keys.shape[-2] ** 0.5 of keys swapped for the product', async () => {
    assert.deepEqual(await findingLines(KEYS_READ('keys.shape[-2] ** 0.5'), 'ATT004'), [17]);
  });
  it('is silent on keys.shape[-1] ** 0.5', async () => {
    assert.deepEqual(await findingLines(KEYS_READ('keys.shape[-1] ** 0.5'), 'ATT004'), []);
  });
  it('is silent on a read of the swapped keys own last axis (the number of keys would be -1 of the swapped, -2 is the width)', async () => {
    const src = KEYS_READ('keys.transpose(2, 3).shape[-2] ** 0.5');
    assert.deepEqual(await findingLines(src, 'ATT004'), []);
  });
  it('reports tf.shape(value)[1] of the values the weights are multiplied with', async () => {
    assert.deepEqual(await findingLines(TF_VALUES('tf.shape(value)[1]'), 'ATT004'), [16]);
  });
  it('is silent on tf.shape(value)[-1], the projected width', async () => {
    assert.deepEqual(await findingLines(TF_VALUES('tf.shape(value)[-1]'), 'ATT004'), []);
  });
});

// 9. A shape comment written with `?` for a size known at run time only (`# (?, maxlen, 1)`, as TensorFlow 1 and Keras
//    print a batch axis) states the rank and the length-1 axis like any other (b17-07).
const KERAS_GATE = (comment: string, softmax: string): string => `import tensorflow as tf
from keras import backend as K
from keras.layers import Layer


class Attention(Layer):
    def build(self, input_shape):
        self.w1 = self.add_weight(name="w1", shape=(64, input_shape[-1]))
        self.w2 = self.add_weight(name="w2", shape=(64, 1))
        super().build(input_shape)

    def call(self, H):
        A = K.tanh(K.dot(H, tf.transpose(self.w1)))  # (?, maxlen, 64)
        A = K.dot(A, self.w2)  # ${comment}
        A = ${softmax}
        return A
`;

describe('regscale36: shape comments with ? for a run-time size (ATT001)', () => {
  it('reports a softmax over the length-1 axis the comment states', async () => {
    assert.deepEqual(await findingLines(KERAS_GATE('(?, maxlen, 1)', 'K.softmax(A)'), 'ATT001'), [15]);
  });
  it('is silent on a softmax over the time axis', async () => {
    assert.deepEqual(await findingLines(KERAS_GATE('(?, maxlen, 1)', 'K.softmax(A, axis=1)'), 'ATT001'), []);
  });
  it('is silent when the comment offers alternatives', async () => {
    assert.deepEqual(await findingLines(KERAS_GATE('(?, maxlen, 1) or (?, maxlen, r)', 'K.softmax(A)'), 'ATT001'), []);
  });
});
