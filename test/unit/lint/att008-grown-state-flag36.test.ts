// Session 36, reg-fill-s36: ATT008, class "a causal flag that tests the state the module grows, as the call found it".
//
// A module keeping its own KV cache (`self.kv_cache`, None until the first call fills it) reads
// `prefill = self.kv_cache is None` before joining its keys with the cache and passes `is_causal=prefill`: the prompt
// meets the state empty and runs causal over its own keys; only later calls, with the state filled, turn the mask off
// (one token each). The rule reported it as a flag that turns the mask off whenever a cache is passed; a test of the
// grown state itself is not that (as it already is not for a hand-written mask, `if not cache_enabled or prefill:`).
// The flag off whenever a cache object is passed in (`is_causal=cache is None` with `cache.update(k, v)`) stays reported.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const OWN_STATE = (flag: string): string => `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attn(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.kv_cache = None

    def forward(self, x, use_cache=False):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        prefill = self.kv_cache is None
        if use_cache:
            if self.kv_cache is not None:
                k = torch.cat([self.kv_cache[0], k], dim=2)
                v = torch.cat([self.kv_cache[1], v], dim=2)
            self.kv_cache = (k, v)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=${flag})
        return self.proj(y.transpose(1, 2).reshape(B, T, C))
`;

const PASSED_CACHE = `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attn(nn.Module):
    def __init__(self, dim, heads, layer_idx):
        super().__init__()
        self.heads, self.layer_idx = heads, layer_idx
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, cache=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        if cache is not None:
            k, v = cache.update(k, v, self.layer_idx)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=cache is None)
        return y.transpose(1, 2).reshape(B, T, C)
`;

describe('ATT008: a causal flag testing the grown state as the call found it (session 36)', () => {
  it('is silent on is_causal=prefill with prefill = self.kv_cache is None read before the join', async () => {
    assert.deepEqual(await findingLines(OWN_STATE('prefill'), 'ATT008'), []);
  });

  it('still reports the flag off whenever a cache object is passed and extended in place', async () => {
    assert.deepEqual(await findingLines(PASSED_CACHE, 'ATT008'), [17]);
  });

  it('still reports is_causal=True on the grown state (the decode step sees only the first cached keys)', async () => {
    assert.deepEqual(await findingLines(OWN_STATE('True'), 'ATT008'), [23]);
  });

  it('is silent with a generate loop in another file prefilling then decoding one token at a time', async () => {
    const gen = `import torch

from .attn import Attn


def generate(x, steps):
    m = Attn(64, 4)
    y = m(x, use_cache=True)
    for _ in range(steps):
        y = m(y[:, -1:], use_cache=True)
    return y
`;
    const files = { 'pkg/__init__.py': '', 'pkg/attn.py': OWN_STATE('prefill'), 'pkg/gen.py': gen };
    assert.deepEqual(await workspaceFindingLines(files, 'pkg/attn.py', 'ATT008'), []);
  });
});
