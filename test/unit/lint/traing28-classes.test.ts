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
import { grammar, linter, memoryWorkspace } from './helpers';
import { createPythonParser } from '../../../src/lint/parser';
import { analyseScopes } from '../../../src/lint/analysis/scopes';
import { Evaluator } from '../../../src/lint/analysis/evaluator';
import { walk, type PyNode } from '../../../src/lint/syntax/tree';
import type { AValue } from '../../../src/lint/analysis/values';

/** The evaluator's value of the last occurrence of exprText in src (in its innermost function). */
async function valueOf(src: string, exprText: string): Promise<AValue> {
  const tree = (await createPythonParser(grammar())).parse(src, { full: true });
  const sr = analyseScopes(tree);
  const ev = new Evaluator(tree, sr);
  ev.run();
  let last: PyNode | undefined;
  walk(tree.root, (n) => {
    if (src.slice(n.start, n.end) === exprText && n.type !== 'expression_statement') last = n;
  });
  assert.ok(last, `${exprText} not found`);
  const n = last;
  const scope = [...sr.scopes].reverse().find((s) => s.node.start <= n.start && n.end <= s.node.end && s.kind !== 'comprehension') ?? sr.module;
  return ev.eval(n, ev.defaultCtx(scope));
}

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
