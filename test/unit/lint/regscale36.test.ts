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
