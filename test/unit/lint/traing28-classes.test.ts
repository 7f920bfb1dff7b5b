// Session 28, training batch g: the classes behind its misses, as unit tests.
//
// ATT005, class "keys split into heads after the tokens, (B, T, H, hd), with their last two axes swapped for
// q @ kᵀ": the fused-QKV split `qkv.reshape(B, N, 3, H, hd).permute(2, 0, 1, 3, 4)` (or a head split with no
// transpose) leaves q, k and v with the heads second to last, so `k.transpose(-2, -1)` gives (B, T, hd, H) and the
// product pairs the heads of one token with each other, never a query token with a key token. Decided from the
// layout the code gives the keys and the queries (a view with the head count and the per-head width); the right
// permute (heads before tokens), keys of unknown layout and layouts stated only in comments stay silent.
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import { grammar, linter, memoryWorkspace, valueOf } from './helpers';

const FUSED = `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim).permute(2, 0, 1, 3, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q @ k.transpose(-2, -1)) * self.head_dim**-0.5
        attn = attn.softmax(dim=-1)
        x = (attn @ v).reshape(B, N, C)
        return self.proj(x)
`;

async function att005(src: string): Promise<number[]> {
  return (await linter())
    .lintPython(src)
    .filter((f) => f.code === 'ATT005')
    .map((f) => f.line);
}

describe('lint: keys with the heads after the tokens, last two axes swapped for q @ kᵀ (ATT005)', () => {
  it('fused QKV permuted (2, 0, 1, 3, 4): the key transpose is reported, saying it pairs heads', async () => {
    const [f, ...rest] = (await linter()).lintPython(FUSED).filter((x) => x.code === 'ATT005');
    assert.ok(f);
    assert.equal(rest.length, 0);
    assert.equal(f.line, 17);
    assert.match(f.message, /heads/);
    assert.equal(f.fix, undefined);
  });
  it('torch transpose by keyword, k.transpose(dim0=-1, dim1=-2), swaps two axes (it is not NumPy reversing every axis)', async () => {
    const src = `import torch


def f(x, B, T, n_heads, head_dim):
    k = x.view(B, T, n_heads, head_dim).transpose(1, 2)
    kt = k.transpose(dim0=-1, dim1=-2)
    return kt
`;
    const kt = await valueOf(src, 'kt');
    assert.deepEqual(
      kt.axes?.map((a) => a.label),
      ['batch', 'head', 'feat', 'seq'],
    );
    // And the wrong pair by keyword is reported as the positional one is.
    const wrong = FUSED.replace('permute(2, 0, 1, 3, 4)', 'permute(2, 0, 3, 1, 4)').replace('k.transpose(-2, -1)', 'k.transpose(dim0=1, dim1=2)');
    assert.deepEqual(await att005(wrong), [17]);
  });
  it('the same with keyword axes, .mT, swapaxes and torch.matmul is reported', async () => {
    assert.deepEqual(await att005(FUSED.replace('k.transpose(-2, -1)', 'k.transpose(dim0=-1, dim1=-2)')), [17]);
    assert.deepEqual(await att005(FUSED.replace('k.transpose(-2, -1)', 'k.mT')), [17]);
    assert.deepEqual(await att005(FUSED.replace('k.transpose(-2, -1)', 'k.swapaxes(-1, -2)')), [17]);
    assert.deepEqual(await att005(FUSED.replace('(q @ k.transpose(-2, -1))', 'torch.matmul(q, k.transpose(-2, -1))')), [17]);
  });
  it('a plain head split with no transpose, view(B, T, H, hd), is reported too', async () => {
    const src = `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)

    def forward(self, x):
        B, T, C = x.size()
        q = self.q(x).view(B, T, self.n_heads, self.head_dim)
        k = self.k(x).view(B, T, self.n_heads, self.head_dim)
        v = self.v(x).view(B, T, self.n_heads, self.head_dim)
        att = torch.softmax(q @ k.transpose(-2, -1) / self.head_dim**0.5, dim=-1)
        return (att @ v).reshape(B, T, C)
`;
    assert.deepEqual(await att005(src), [19]);
    // fixed: heads moved before the tokens.
    const fixed = src.replace(/\.view\(B, T, self\.n_heads, self\.head_dim\)/g, '.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)');
    assert.deepEqual(await att005(fixed), []);
  });
  it('fixed: permute (2, 0, 3, 1, 4) and (2, 3, 0, 1, 4) put the heads before the tokens and are silent', async () => {
    assert.deepEqual(await att005(FUSED.replace('permute(2, 0, 1, 3, 4)', 'permute(2, 0, 3, 1, 4)')), []);
    assert.deepEqual(await att005(FUSED.replace('permute(2, 0, 1, 3, 4)', 'permute(2, 3, 0, 1, 4)')), []);
    assert.deepEqual(
      await att005(FUSED.replace('permute(2, 0, 1, 3, 4)', 'permute(2, 3, 0, 1, 4)').replace('k.transpose(-2, -1)', 'k.transpose(dim0=-1, dim1=-2)')),
      [],
    );
  });
  it('keys of unknown layout, and a layout stated only in a comment, are silent', async () => {
    const params = `import torch


def attend(q, k, v):
    return torch.softmax(q @ k.transpose(-2, -1), dim=-1) @ v
`;
    assert.deepEqual(await att005(params), []);
    const stated = `import torch


def attend(q, k, v):
    # q, k, v: (B, T, H, hd)
    return torch.softmax(q @ k.transpose(-2, -1), dim=-1) @ v
`;
    assert.deepEqual(await att005(stated), []);
  });
  it('cross-file: a helper of another file splits the heads after the tokens; the key transpose is reported, and silent once the helper moves them', async () => {
    const heads = `def split_heads(x, num_heads):
    B, T, C = x.shape
    return x.view(B, T, num_heads, C // num_heads)
`;
    const attn = `import torch
import torch.nn as nn

from heads import split_heads


class Attention(nn.Module):
    def __init__(self, dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.to_q = nn.Linear(dim, dim)
        self.to_k = nn.Linear(dim, dim)
        self.to_v = nn.Linear(dim, dim)

    def forward(self, x):
        q = split_heads(self.to_q(x), self.num_heads)
        k = split_heads(self.to_k(x), self.num_heads)
        v = split_heads(self.to_v(x), self.num_heads)
        att = torch.softmax(q @ k.transpose(-2, -1) / q.size(-1) ** 0.5, dim=-1)
        return att @ v
`;
    const lines = async (h: string) =>
      (await createLinter(grammar(), { workspace: memoryWorkspace({ 'heads.py': h, 'attn.py': attn }), onInternalError: (e) => assert.fail(String(e)) }))
        .lintPython(attn, { path: 'attn.py' })
        .filter((f) => f.code === 'ATT005')
        .map((f) => f.line);
    assert.deepEqual(await lines(heads), [19]);
    assert.deepEqual(await lines(heads.replace('C // num_heads)', 'C // num_heads).transpose(1, 2)')), []);
  });
});

// ATT004, class "a multi-head layer that never splits into heads but scales by one head's width": q, k and v are
// projected to the model width d and used whole (no view into heads), while the scores are divided by
// sqrt(d // num_heads), sqrt(num_heads) too little. Decided from values: the queries and keys are whole outputs of
// Linear(·, d), and the scale's width is that same d divided by a count. Projections split into heads (in every
// context the code shows), a head width not derived from the projection's width, and unknown operands stay silent.
// The projections may come from `clones(nn.Linear(d, d), 4)` (copies of one layer, the annotated transformer's helper),
// also when the helper lives in another file.
const WHOLE = `import math

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.d_k = d_model // num_heads
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)

    def forward(self, x):
        query = self.w_q(x)
        key = self.w_k(x)
        value = self.w_v(x)
        scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(self.d_k)
        return torch.matmul(scores.softmax(dim=-1), value)
`;

async function att004(src: string): Promise<number[]> {
  return (await linter())
    .lintPython(src)
    .filter((f) => f.code === 'ATT004')
    .map((f) => f.line);
}

describe("lint: one head's width as the scale of scores over whole, unsplit projections (ATT004)", () => {
  it('q and k projected to d_model and never split, divided by sqrt(d_model // num_heads): reported at the scale', async () => {
    const [f, ...rest] = (await linter()).lintPython(WHOLE).filter((x) => x.code === 'ATT004');
    assert.ok(f);
    assert.equal(rest.length, 0);
    assert.equal(f.line, 19);
    assert.match(f.message, /never split into heads/);
    assert.match(f.message, /sqrt\(d_model\)/);
    // The scale inline, and 1/sqrt multiplied in, are the same class.
    assert.deepEqual(
      await att004(
        WHOLE.replace('/ math.sqrt(self.d_k)', '* (d_k ** -0.5)').replace('        query = self.w_q(x)', '        d_k = self.d_k\n        query = self.w_q(x)'),
      ),
      [20],
    );
  });
  it('fixed: split into heads with a view, or divided by sqrt(d_model), is silent', async () => {
    const split = WHOLE.replace(/(\w+) = self\.w_(\w)\(x\)/g, '$1 = self.w_$2(x).view(x.size(0), -1, self.h, self.d_k).transpose(1, 2)').replace(
      '        self.d_k = d_model // num_heads',
      '        self.h = num_heads\n        self.d_k = d_model // num_heads',
    );
    assert.deepEqual(await att004(split), []);
    const whole = WHOLE.replace('        self.d_k = d_model // num_heads', '        self.d_k = d_model');
    assert.deepEqual(await att004(whole), []);
  });
  it('without the evidence it is silent: operands of unknown width, a head width not derived from the projection width', async () => {
    const params = `import math

import torch


def attention(query, key, value, d_model, num_heads):
    d_k = d_model // num_heads
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
    return torch.matmul(scores.softmax(dim=-1), value)
`;
    assert.deepEqual(await att004(params), []);
    // A projection to another width than the one divided: nothing ties the scale to the keys' width.
    const other = WHOLE.replace('self.d_k = d_model // num_heads', 'self.d_k = hidden // num_heads').replace(
      'def __init__(self, d_model, num_heads):',
      'def __init__(self, d_model, num_heads, hidden):',
    );
    assert.deepEqual(await att004(other), []);
  });
  it('heads taken one by one from the whole projection (split, chunk, cat of splits, slices along the features) are silent', async () => {
    const forms = [
      ['torch.cat(torch.split(self.w_q(x), self.d_k, dim=-1), dim=0)', 'torch.cat(torch.split(self.w_k(x), self.d_k, dim=-1), dim=0)'],
      ['torch.stack(self.w_q(x).chunk(self.h, dim=-1), dim=1)', 'torch.stack(self.w_k(x).chunk(self.h, dim=-1), dim=1)'],
      ['self.w_q(x)[..., i * self.d_k : (i + 1) * self.d_k]', 'self.w_k(x)[:, :, i * self.d_k : (i + 1) * self.d_k]'],
    ];
    for (const [q, k] of forms) {
      const layer = `import math

import torch
from torch import nn


class PerHead(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.h = num_heads
        self.d_k = d_model // num_heads
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)

    def forward(self, x, i=0):
        q = ${q}
        k = ${k}
        return (q @ k.transpose(-2, -1) / math.sqrt(self.d_k)).softmax(dim=-1)
`;
      assert.deepEqual(await att004(layer), [], q);
    }
    const loop = WHOLE.replace(
      '        scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(self.d_k)\n        return torch.matmul(scores.softmax(dim=-1), value)',
      '        out = []\n        for q, k in zip(query.split(self.d_k, dim=-1), key.split(self.d_k, dim=-1)):\n            out.append((q @ k.transpose(-2, -1) / math.sqrt(self.d_k)).softmax(dim=-1))\n        return out',
    );
    assert.notEqual(loop, WHOLE);
    assert.deepEqual(await att004(loop), []);
  });
  it('cloned projections (the annotated transformer idiom): unsplit is reported, split into heads is silent', async () => {
    const src = `import copy
import math

import torch
from torch import nn


def clones(module, n):
    return nn.ModuleList([copy.deepcopy(module) for _ in range(n)])


class MultiHeadedAttention(nn.Module):
    def __init__(self, h, d_model):
        super().__init__()
        self.d_k = d_model // h
        self.h = h
        self.linears = clones(nn.Linear(d_model, d_model), 4)

    def attention(self, query, key, value):
        scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(self.d_k)
        return torch.matmul(scores.softmax(dim=-1), value)

    def forward(self, query, key, value):
        query, key, value = [lin(x) for lin, x in zip(self.linears, (query, key, value))]
        x = self.attention(query, key, value)
        return self.linears[-1](x)
`;
    assert.deepEqual(await att004(src), [20]);
    const split = src.replace('[lin(x) for lin, x in', '[lin(x).view(query.size(0), -1, self.h, self.d_k).transpose(1, 2) for lin, x in');
    assert.deepEqual(await att004(split), []);
  });
  it('cross-file: the clones helper in another file hands back copies of the layer; unsplit is reported, split is silent', async () => {
    const utils = `import copy

from torch import nn


def clone_layers(module, n):
    return nn.ModuleList([copy.deepcopy(module) for _ in range(n)])
`;
    const attn = `import math

import torch
from torch import nn

from utils import clone_layers


class MultiHeadAttention(nn.Module):
    def __init__(self, head_size, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.d_k = head_size // num_heads
        self.weight_matrices = clone_layers(nn.Linear(head_size, head_size), 4)

    def _attention(self, query, key, value):
        scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(self.d_k)
        return torch.matmul(scores.softmax(dim=-1), value)

    def forward(self, query, key, value):
        query, key, value = [w(x) for w, x in zip(self.weight_matrices, (query, key, value))]
        return self.weight_matrices[-1](self._attention(query, key, value))
`;
    const lines = async (text: string) =>
      (await createLinter(grammar(), { workspace: memoryWorkspace({ 'utils.py': utils, 'attn.py': text }), onInternalError: (e) => assert.fail(String(e)) }))
        .lintPython(text, { path: 'attn.py' })
        .filter((f) => f.code === 'ATT004')
        .map((f) => f.line);
    assert.deepEqual(await lines(attn), [17]);
    // A helper that hands the layer back as it is, or in a tuple, gives the caller its own layer too.
    const same = utils + '\n\ndef pair(module):\n    return module, module\n';
    const paired = attn
      .replace('from utils import clone_layers', 'from utils import pair')
      .replace('self.weight_matrices = clone_layers(nn.Linear(head_size, head_size), 4)', 'self.wq, self.wk = pair(nn.Linear(head_size, head_size))')
      .replace('query, key, value = [w(x) for w, x in zip(self.weight_matrices, (query, key, value))]', 'query, key = self.wq(query), self.wk(key)')
      .replace('return self.weight_matrices[-1](self._attention(query, key, value))', 'return self._attention(query, key, value)');
    const pairedLines = (
      await createLinter(grammar(), { workspace: memoryWorkspace({ 'utils.py': same, 'attn.py': paired }), onInternalError: (e) => assert.fail(String(e)) })
    )
      .lintPython(paired, { path: 'attn.py' })
      .filter((f) => f.code === 'ATT004')
      .map((f) => f.line);
    assert.deepEqual(pairedLines, [17]);
    const split = attn.replace('[w(x) for w, x in', '[w(x).view(query.size(0), -1, self.num_heads, self.d_k).transpose(1, 2) for w, x in');
    assert.deepEqual(await lines(split), []);
  });
});

// ATT001, class "scores of q and k laid out with the heads after the tokens, normalised over their last axis": a head
// split that leaves (…, T, H, hd) (NumPy's `reshape(B, H, T, dk).transpose(0, 2, 1, 3)`, which the comments believe
// gives (B, H, T, dk)) and keys turned by a full permutation (`k.transpose(0, 1, 3, 2)`, `k.permute(0, 1, 3, 2)`):
// the scores are (…, T, H, H) and the softmax over the last axis normalises across the heads. Decided from the layout
// the code gives q and k. When the keys are turned by a swap of their last two axes (`k.transpose(-2, -1)`), ATT005
// reports the same mistake at the swap and this rule stays silent (one finding per mistake).
const NUMPY_SPLIT = `import numpy as np


def split_heads(t, batch_size, num_heads, seq_len, d_k):
    t = t.reshape(batch_size, num_heads, seq_len, d_k)
    return t.transpose(0, 2, 1, 3)


def attention(X, W_q, W_k, W_v, batch_size, num_heads, seq_len, d_k):
    q = split_heads(X @ W_q, batch_size, num_heads, seq_len, d_k)
    k = split_heads(X @ W_k, batch_size, num_heads, seq_len, d_k)
    v = split_heads(X @ W_v, batch_size, num_heads, seq_len, d_k)
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d_k)
    weights = np.exp(scores - np.max(scores, axis=-1, keepdims=True))
    weights = weights / np.sum(weights, axis=-1, keepdims=True)
    return weights @ v
`;

async function codes(src: string, ...which: string[]): Promise<string[]> {
  return (await linter())
    .lintPython(src)
    .filter((f) => which.includes(f.code))
    .map((f) => `${f.code}:${f.line}`);
}

describe('lint: softmax over the heads of q @ kᵀ laid out (…, T, H, hd) (ATT001)', () => {
  it('NumPy: reshape (B, H, T, dk) then transpose (0, 2, 1, 3), keys permuted (0, 1, 3, 2): the softmax axis is reported', async () => {
    assert.deepEqual(await codes(NUMPY_SPLIT, 'ATT001', 'ATT005'), ['ATT001:15']);
    const [f] = (await linter()).lintPython(NUMPY_SPLIT).filter((x) => x.code === 'ATT001');
    assert.match(f?.message ?? '', /heads after the tokens/);
  });
  it('fixed: reshape (B, T, H, dk) then transpose (0, 2, 1, 3) is silent', async () => {
    const fixed = NUMPY_SPLIT.replace('t.reshape(batch_size, num_heads, seq_len, d_k)', 't.reshape(batch_size, seq_len, num_heads, d_k)');
    assert.deepEqual(await codes(fixed, 'ATT001', 'ATT005'), []);
  });
  it('torch: (B, T, H, hd) keys permuted (0, 1, 3, 2) are reported by ATT001; swapped (-2, -1), by ATT005 alone', async () => {
    const src = `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, self.head_dim).unbind(2)
        att = torch.softmax(q @ k.permute(0, 1, 3, 2) / self.head_dim**0.5, dim=-1)
        return (att @ v).reshape(B, T, C)
`;
    assert.deepEqual(await codes(src, 'ATT001', 'ATT005'), ['ATT001:15']);
    assert.deepEqual(await codes(src.replace('k.permute(0, 1, 3, 2)', 'k.transpose(-2, -1)'), 'ATT001', 'ATT005'), ['ATT005:15']);
    const fixed = src.replace('.unbind(2)', '.permute(2, 0, 3, 1, 4)').replace('k.permute(0, 1, 3, 2)', 'k.transpose(-2, -1)');
    assert.deepEqual(await codes(fixed, 'ATT001', 'ATT005'), []);
  });
  it('a layout stated only in a comment is silent', async () => {
    const src = `import numpy as np


def attention(q, k, v):
    # q, k, v: (batch, seq, heads, d_k)
    scores = q @ k.transpose(0, 1, 3, 2)
    weights = np.exp(scores - np.max(scores, axis=-1, keepdims=True))
    weights = weights / np.sum(weights, axis=-1, keepdims=True)
    return weights @ v
`;
    assert.deepEqual(await codes(src, 'ATT001', 'ATT005'), []);
  });
  it('cross-file: the head split in another file leaves (B, T, H, dk); the softmax is reported, and silent once the split is fixed', async () => {
    const heads = `def split_heads(t, batch_size, num_heads, seq_len, d_k):
    t = t.reshape(batch_size, num_heads, seq_len, d_k)
    return t.transpose(0, 2, 1, 3)
`;
    const attn = `import numpy as np

from heads import split_heads


def attention(X, W_q, W_k, W_v, batch_size, num_heads, seq_len, d_k):
    q = split_heads(X @ W_q, batch_size, num_heads, seq_len, d_k)
    k = split_heads(X @ W_k, batch_size, num_heads, seq_len, d_k)
    v = split_heads(X @ W_v, batch_size, num_heads, seq_len, d_k)
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d_k)
    weights = np.exp(scores - np.max(scores, axis=-1, keepdims=True))
    weights = weights / np.sum(weights, axis=-1, keepdims=True)
    return weights @ v
`;
    const lines = async (h: string) =>
      (await createLinter(grammar(), { workspace: memoryWorkspace({ 'heads.py': h, 'attn.py': attn }), onInternalError: (e) => assert.fail(String(e)) }))
        .lintPython(attn, { path: 'attn.py' })
        .filter((f) => f.code === 'ATT001' || f.code === 'ATT005')
        .map((f) => `${f.code}:${f.line}`);
    assert.deepEqual(await lines(heads), ['ATT001:12']);
    assert.deepEqual(await lines(heads.replace('reshape(batch_size, num_heads, seq_len, d_k)', 'reshape(batch_size, seq_len, num_heads, d_k)')), []);
  });
});
