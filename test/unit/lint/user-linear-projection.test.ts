// A workspace class written as a Linear layer: its `__call__`/`forward` returns its input times a weight shaped by two
// of its constructor's parameters (`self.weights = init(key, (n_in, n_out))`, then `jnp.dot(x, self.weights)`), read
// as `nn.Linear(n_in, n_out)` with the widths its constructor call passes (ops.ts: userProjection). With the
// attention function's arguments bound through `functools.partial` (and `jax.jit`), a fused projection of the input
// width C to 3C, split into heads with `reshape(B, T, heads, -1)`, makes `sqrt(C)` the width going into the
// projection, not each head's; a head count the caller binds to 1 is one head (reshape axis of length 1), where C is
// the head width. Small examples written fresh, with their correct forms and a pair whose widths come from a
// config module.
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import { grammar, linter, memoryWorkspace } from './helpers';

const JAX = (opts: { scale?: string; heads?: string; imports?: string; build?: string; linear?: string } = {}): string => `from functools import partial

import jax
import jax.numpy as jnp
${opts.imports ?? ''}

class Linear:
    def __init__(self, n_in, n_out, key):
        self.weights = jax.nn.initializers.glorot_normal()(key, (n_in, n_out), jnp.float32)

    def __call__(self, x):
        return ${opts.linear ?? 'jnp.dot(x, self.weights)'}


def attention(x, qkv_proj, num_heads):
    B, T, C = x.shape
    qkv = qkv_proj(x).reshape(B, T, num_heads, -1).transpose(0, 2, 1, 3)
    q, k, v = jnp.split(qkv, 3, axis=-1)
    att = jnp.matmul(q, k.transpose(0, 1, 3, 2)) / ${opts.scale ?? 'jnp.sqrt(C)'}
    att = jax.nn.softmax(att, axis=-1)
    return jnp.matmul(att, v).transpose(0, 2, 1, 3).reshape(B, T, C)


class SelfAttention:
    def __init__(self, width, heads, key):
        ${opts.build ?? 'self.qkv_proj = Linear(width, 3 * width, key)'}
        self.forward = jax.jit(partial(attention, qkv_proj=self.qkv_proj, num_heads=${opts.heads ?? 'heads'}))

    def __call__(self, x):
        return self.forward(x)
`;

const TORCH = (scale: string): string => `import math

import torch
from torch import nn


class MyLinear(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.w = nn.Parameter(torch.randn(d_in, d_out) * 0.02)

    def forward(self, x):
        return x @ self.w


class SelfAttention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = MyLinear(dim, 3 * dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.n_heads, -1).permute(2, 0, 3, 1, 4)
        att = (q @ k.transpose(-2, -1)) / ${scale}
        return (att.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, N, C)
`;

const CONFIG = `from dataclasses import dataclass


@dataclass
class Config:
    hidden_size = 16
    num_heads = 4
`;

async function att004(src: string): Promise<number[]> {
  const l = await linter();
  return l
    .lintPython(src)
    .filter((f) => f.code === 'ATT004')
    .map((f) => f.line);
}

describe('lint: a workspace class that multiplies its input by a weight it shapes is a projection (ATT004)', () => {
  it('buggy: Linear(width, 3 * width) split into heads, the scores divided by sqrt(C) of its input', async () => {
    assert.deepEqual(await att004(JAX()), [19]);
  });
  it('the message names the width the constructor call passes', async () => {
    const l = await linter();
    const [f] = l.lintPython(JAX()).filter((x) => x.code === 'ATT004');
    assert.match(f.message, /uses width, the width going into the query projection/);
  });
  it('correct: the scale taken per head, sqrt(C // num_heads): silent', async () => {
    assert.deepEqual(await att004(JAX({ scale: 'jnp.sqrt(C // num_heads)' })), []);
  });
  it('correct: one head (the partial binds num_heads=1): C is the head width, silent', async () => {
    assert.deepEqual(await att004(JAX({ heads: '1' })), []);
  });
  it('x @ self.weights is the same product', async () => {
    assert.deepEqual(await att004(JAX({ linear: 'x @ self.weights' })), [19]);
  });
  it('not a projection: a product with the weight plus something else, or a weight shaped by one width only: silent', async () => {
    assert.deepEqual(await att004(JAX({ linear: 'jnp.dot(x, self.weights) + x' })), []);
    const square = JAX().replace('(key, (n_in, n_out), jnp.float32)', '(key, (n_in, n_in), jnp.float32)');
    assert.deepEqual(await att004(square), []);
  });
  it('buggy (torch): a module whose forward is x @ self.w, w = nn.Parameter(torch.randn(d_in, d_out)), as the fused qkv', async () => {
    assert.deepEqual(await att004(TORCH('math.sqrt(C)')), [25]);
  });
  it('correct (torch): the same module, the scores divided by sqrt(C // n_heads): silent', async () => {
    assert.deepEqual(await att004(TORCH('math.sqrt(C // self.n_heads)')), []);
  });
  it('cross-file: the widths are fields of a config class in config.py (Linear(config.hidden_size, 3 * config.hidden_size))', async () => {
    const src = JAX({ imports: 'from config import Config\n', build: 'self.qkv_proj = Linear(config.hidden_size, 3 * config.hidden_size, key)' })
      .replace('def __init__(self, width, heads, key):', 'def __init__(self, config: Config, key):')
      .replace('num_heads=heads', 'num_heads=config.num_heads');
    const l = await createLinter(grammar(), { workspace: memoryWorkspace({ 'config.py': CONFIG, 'model.py': src }) });
    const found = l.lintPython(src, { path: 'model.py' }).filter((f) => f.code === 'ATT004');
    assert.deepEqual(
      found.map((f) => f.line),
      [20],
    );
    const perHead = src.replace('/ jnp.sqrt(C)', '/ jnp.sqrt(C // num_heads)');
    assert.deepEqual(
      l.lintPython(perHead, { path: 'model.py' }).filter((f) => f.code === 'ATT004'),
      [],
    );
  });
});
