// Classes learnt from the training set (test/lint-train/a, t8a-09): (1) a causal mask built top-left over L queries
// and S keys (`tril(ones(L, S))`, `1 - tril(...)`), made additive (`where(m, -inf, 0)`) and added to scores whose keys
// include a KV cache (`scores = scores + mask`): the new queries see only the first keys, as with the masked_fill form
// (ATT008); the bottom-right form `tril(ones(L, S), k=S - L)` is right. (2) MLX's array functions (`mlx.core`), which
// follow NumPy's (`tril(x, k)`, `where`, `concatenate(axis=)`, `matmul`, `mx.inf`), read as NumPy's; `mx.softmax`
// normalises over every axis unless given one (MLX's documentation). (3) The mask built in a helper, the keys
// joined with the cache by its caller (`attend(q, torch.cat([past_k, k]), v)`), in the same file or in a file
// importing the helper: judged as the caller calls it. Small examples written fresh, each with its fixed form.
import { strict as assert } from 'node:assert';
import { createLinter, type ExtendedLinter } from '../../../src/lint';
import { grammar, linter, memoryWorkspace } from './helpers';

const torchAdditive = `import torch


def decode_step(q, k_new, v_new, past_k, past_v):
    k = torch.cat([past_k, k_new], dim=-2)
    v = torch.cat([past_v, v_new], dim=-2)
    n_q, n_k = q.size(-2), k.size(-2)
    logits = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    future = 1 - torch.tril(torch.ones(n_q, n_k))
    bias = torch.where(future.bool(), float("-inf"), 0.0)
    logits = logits + bias
    return torch.softmax(logits, dim=-1) @ v
`;

const mlxAdditive = `import mlx.core as mx


def attend_chunk(q, k_new, v_new, cached_k, cached_v):
    k = mx.concatenate([cached_k, k_new], axis=2)
    v = mx.concatenate([cached_v, v_new], axis=2)
    n_q, n_k = q.shape[-2], k.shape[-2]
    w = mx.matmul(q, k.swapaxes(-2, -1)) * (q.shape[-1] ** -0.5)
    keep = mx.tril(mx.ones((n_q, n_k)))
    w = w + mx.where(keep, 0.0, -mx.inf)
    return mx.matmul(mx.softmax(w, axis=-1), v)
`;

async function att008Lines(src: string): Promise<number[]> {
  const l = await linter();
  return l
    .lintPython(src)
    .filter((f) => f.code === 'ATT008')
    .map((f) => f.line);
}

describe('lint: a top-left causal mask made additive, on cached keys (ATT008)', () => {
  it('torch: 1 - tril(ones(L, S)) turned into -inf/0 and added to the scores is reported at the added mask', async () => {
    assert.deepEqual(await att008Lines(torchAdditive), [11]);
  });
  it('torch, fixed: tril(ones(L, S), diagonal=S - L) is bottom-right, silent', async () => {
    const fixed = torchAdditive.replace('torch.tril(torch.ones(n_q, n_k))', 'torch.tril(torch.ones(n_q, n_k), diagonal=n_k - n_q)');
    assert.deepEqual(await att008Lines(fixed), []);
  });
  it('torch: the same scores without a cache (keys are the new tokens only) are silent', async () => {
    const noCache = torchAdditive.replace('torch.cat([past_k, k_new], dim=-2)', 'k_new').replace('torch.cat([past_v, v_new], dim=-2)', 'v_new');
    assert.deepEqual(await att008Lines(noCache), []);
  });
  it('MLX: mx.where(tril(ones((L, S))), 0, -mx.inf) added to scores against concatenated keys is reported', async () => {
    assert.deepEqual(await att008Lines(mlxAdditive), [10]);
  });
  it('MLX, fixed: mx.tril(..., k=S - L) is silent', async () => {
    const fixed = mlxAdditive.replace('mx.tril(mx.ones((n_q, n_k)))', 'mx.tril(mx.ones((n_q, n_k)), k=n_k - n_q)');
    assert.deepEqual(await att008Lines(fixed), []);
  });
  it('MLX: mx.softmax without an axis normalises over every axis (ATT001), with axis=-1 silent', async () => {
    const l = await linter();
    const src = `import mlx.core as mx


def attention(q, k, v):
    B, L, D = q.shape
    s = mx.matmul(q, k.swapaxes(-2, -1)) / (D**0.5)
    return mx.matmul(mx.softmax(s), v)
`;
    // Session 48: the queries' rank shown by the code (a rank not shown leaves one query's vector possible, and over
    // every element of it is over the keys: att001-implicit-dim-unknown-rank48.test.ts).
    assert.deepEqual(
      l.lintPython(src).map((f) => `${f.line} ${f.code}`),
      ['7 ATT001'],
    );
    assert.deepEqual(l.lintPython(src.replace('mx.softmax(s)', 'mx.softmax(s, axis=-1)')), []);
  });
});

const HELPER = `import torch


def softmax_last(x):
    e = torch.exp(x - x.amax(dim=-1, keepdim=True))
    return e / e.sum(dim=-1, keepdim=True)


def attend(q, k, v):
    n_q, n_k = q.size(-2), k.size(-2)
    logits = q @ k.transpose(-2, -1) * q.size(-1) ** -0.5
    hidden = 1 - torch.tril(torch.ones(n_q, n_k))
    logits = logits + torch.where(hidden.bool(), float("-inf"), 0.0)
    return softmax_last(logits) @ v
`;

const CALLER = `import torch

from ops import attend


class Layer:
    def __init__(self, proj):
        self.proj = proj
        self.past_k = None
        self.past_v = None

    def step(self, x):
        q, k, v = self.proj(x).chunk(3, dim=-1)
        if self.past_k is not None:
            k = torch.cat([self.past_k, k], dim=-2)
            v = torch.cat([self.past_v, v], dim=-2)
        self.past_k, self.past_v = k, v
        return attend(q, k, v)
`;

async function workspaceLinter(files: Record<string, string>): Promise<ExtendedLinter> {
  return createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
}

describe('lint: a top-left causal mask in a helper whose caller passes cached keys (ATT008)', () => {
  it('same file: the helper called with keys joined with the cache is reported at the added mask', async () => {
    const src = `${HELPER}

def decode(q, k_new, v_new, past_k, past_v):
    return attend(q, torch.cat([past_k, k_new], dim=-2), torch.cat([past_v, v_new], dim=-2))
`;
    assert.deepEqual(await att008Lines(src), [13]);
    const fixed = src.replace('torch.tril(torch.ones(n_q, n_k))', 'torch.tril(torch.ones(n_q, n_k), diagonal=n_k - n_q)');
    assert.deepEqual(await att008Lines(fixed), []);
  });
  it('same file: the helper called only with the new keys is silent', async () => {
    const src = `${HELPER}

def encode(q, k, v):
    return attend(q, k, v)
`;
    assert.deepEqual(await att008Lines(src), []);
  });
  it('cross-file: the cache joined in the importing file is reported in the helper, with the join as a related location there', async () => {
    const l = await workspaceLinter({ 'ops.py': HELPER, 'layer.py': CALLER });
    const fs = l.lintPython(HELPER, { path: 'ops.py' }).filter((f) => f.code === 'ATT008');
    assert.deepEqual(
      fs.map((f) => f.line),
      [13],
    );
    assert.ok(fs[0]?.related?.some((r) => r.path === 'layer.py' && r.line === 15));
  });
  it('cross-file, fixed: the bottom-right mask in the helper is silent', async () => {
    const fixed = HELPER.replace('torch.tril(torch.ones(n_q, n_k))', 'torch.tril(torch.ones(n_q, n_k), diagonal=n_k - n_q)');
    const l = await workspaceLinter({ 'ops.py': fixed, 'layer.py': CALLER });
    assert.deepEqual(
      l.lintPython(fixed, { path: 'ops.py' }).filter((f) => f.code === 'ATT008'),
      [],
    );
  });
  it('cross-file: an importing file that passes no cache leaves the helper silent', async () => {
    const noCache = CALLER.replace(/        if self.past_k is not None:\n.*\n.*\n        self.past_k, self.past_v = k, v\n/, '');
    assert.ok(!noCache.includes('torch.cat'));
    const l = await workspaceLinter({ 'ops.py': HELPER, 'layer.py': noCache });
    assert.deepEqual(
      l.lintPython(HELPER, { path: 'ops.py' }).filter((f) => f.code === 'ATT008'),
      [],
    );
  });
});
