// `functools.partial(f, *args, **keywords)` read as `f` with those arguments bound (ops.ts: partialFunction;
// evaluator.ts: callBound), wherever it is made, not only for a DataLoader's collate function; a function compiled
// (`torch.compile(f)`, `jax.jit(f)`, `tf.function(f)`) as the function itself. A module that binds
// its attention function's scale in the constructor (`self.attend = partial(attention, scale=1.0 / self.head_dim)`)
// and calls `self.attend(q, k, v)` in forward is judged as if it called `attention(q, k, v, scale=...)`: the
// partial's positionals come first, the call's keywords override the partial's. Small examples written fresh, with
// their correct forms and a cross-file pair (the partial of a helper of another workspace file).
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import { grammar, linter, memoryWorkspace } from './helpers';

const ATTN = (bind: string, call = 'self.attend(q, k, v)', def = 'def attention(q, k, v, scale):'): string => `from functools import partial

import torch
from torch import nn


${def}
    scores = q @ k.transpose(-2, -1) * scale
    return torch.softmax(scores, dim=-1) @ v


class SelfAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.attend = ${bind}

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.n_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        out = ${call}
        return out.transpose(1, 2).reshape(b, t, -1)
`;

const HELPERS = `import math


def scale_queries(q, dim):
    return q / math.sqrt(dim)
`;

const MODEL = (scores: string): string => `from functools import partial

import torch
from torch import nn

from helpers import scale_queries


class SelfAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = d_model // n_heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.prescale = partial(scale_queries, dim=self.head_dim)

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.n_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q = self.prescale(q)
        att = torch.softmax(${scores}, dim=-1)
        return (att @ v).transpose(1, 2).reshape(b, t, -1)
`;

async function att004(src: string): Promise<number[]> {
  const l = await linter();
  return l
    .lintPython(src)
    .filter((f) => f.code === 'ATT004')
    .map((f) => f.line);
}

async function att004In(files: Record<string, string>, path: string): Promise<number[]> {
  const l = await createLinter(grammar(), { workspace: memoryWorkspace(files) });
  return l
    .lintPython(files[path], { path })
    .filter((f) => f.code === 'ATT004')
    .map((f) => f.line);
}

describe('lint: functools.partial binds its arguments where the partial is called (ATT004)', () => {
  it('buggy: partial(attention, scale=1.0 / self.head_dim) called in forward: the scale is one over the head width', async () => {
    assert.deepEqual(await att004(ATTN('partial(attention, scale=1.0 / self.head_dim)')), [8]);
  });
  it('correct: partial(attention, scale=self.head_dim ** -0.5): silent', async () => {
    assert.deepEqual(await att004(ATTN('partial(attention, scale=self.head_dim ** -0.5)')), []);
  });
  it('buggy: the scale bound by position, before the call’s own arguments (partial(attention, 1.0 / self.head_dim))', async () => {
    assert.deepEqual(await att004(ATTN('partial(attention, 1.0 / self.head_dim)', undefined, 'def attention(scale, q, k, v):')), [8]);
  });
  it('correct: the call’s keyword overrides the partial’s (scale=self.head_dim ** -0.5 given at the call): silent', async () => {
    assert.deepEqual(await att004(ATTN('partial(attention, scale=1.0 / self.head_dim)', 'self.attend(q, k, v, scale=self.head_dim ** -0.5)')), []);
  });
  it('a partial of a partial keeps both bindings', async () => {
    assert.deepEqual(await att004(ATTN('partial(partial(attention, scale=1.0 / self.head_dim), v=None)', 'self.attend(q, k, v=v)')), [8]);
  });
  it('buggy: the partial compiled, torch.compile(partial(attention, scale=1.0 / self.head_dim)), computes the same', async () => {
    assert.deepEqual(await att004(ATTN('torch.compile(partial(attention, scale=1.0 / self.head_dim))')), [8]);
  });
  it('correct: torch.compile(partial(attention, scale=self.head_dim ** -0.5)): silent', async () => {
    assert.deepEqual(await att004(ATTN('torch.compile(partial(attention, scale=self.head_dim ** -0.5))')), []);
  });
  it('buggy: jax.jit of the partial, in JAX code, computes the same', async () => {
    const src = ATTN('jax.jit(partial(attention, scale=1.0 / self.head_dim))')
      .replace('import torch\n', 'import jax\nimport torch\n')
      .replace('scores = q @ k.transpose(-2, -1) * scale', 'scores = jnp.matmul(q, k.transpose(0, 1, 3, 2)) * scale')
      .replace('return torch.softmax(scores, dim=-1) @ v', 'return jnp.matmul(jax.nn.softmax(scores, axis=-1), v)')
      .replace('import jax\n', 'import jax\nimport jax.numpy as jnp\n');
    assert.deepEqual(await att004(src), [10]);
  });
  it('cross-file: a partial of a helper of helpers.py that scales q by 1/sqrt(dim), then the scores scaled again: twice on the path', async () => {
    assert.deepEqual(await att004In({ 'helpers.py': HELPERS, 'model.py': MODEL('q @ k.transpose(-2, -1) * self.scale') }, 'model.py'), [22]);
  });
  it('cross-file, correct: the same partial, the scores not scaled again: silent', async () => {
    assert.deepEqual(await att004In({ 'helpers.py': HELPERS, 'model.py': MODEL('q @ k.transpose(-2, -1)') }, 'model.py'), []);
  });
});
