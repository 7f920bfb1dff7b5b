// Session 37, eng-fill-s37: ATT008, class "a cached call with no mask assumed where the callers supply one".
//
// `is_causal=self.kv_cache is None` on keys a cache object extends in place is reported because the prompt can only
// reach such a cache through a call with the cache attached and no causal mask. A function that also passes its
// caller's mask to the same call (`attn_mask=mask`) leaves the cached case to its callers: torchtune's fused-attention
// test script builds the module with `KVCache(...) if use_kv_cache else None` and, under `if use_kv_cache:`, passes a
// causal mask. In the context of the call that passes no mask, the cache is only possibly attached (a join of the
// cache and None); with a call in view that passes a mask, the finding would rest on a correlation of conditions the
// linter does not read, so it is not reported. With no call passing a mask, or with the cache certainly attached, it
// still is.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const attention = `from typing import Optional

import torch
import torch.nn as nn
from torchtune.modules import KVCache


class Attention(nn.Module):
    def __init__(self, dim, heads, kv_cache: Optional[KVCache] = None):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.kv_cache = kv_cache

    def forward(self, x, mask: Optional[torch.Tensor] = None, pos: int = 0):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).unbind(2)  # (B, T, H, D)
        if self.kv_cache is not None:
            k, v = self.kv_cache.update(bsz=b, seq_len=t, curr_pos=pos, k_val=k, v_val=v)
        q, k, v = (z.transpose(1, 2) for z in (q, k, v))  # (B, H, T, D)
        out = nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=self.kv_cache is None)
        return out.transpose(1, 2).reshape(b, t, d)
`;
const SDPA = 21;

const MASK = `

def causal_mask(x):
    t = x.shape[1]
    return torch.triu(torch.full((1, 1, t, t), float("-inf")), diagonal=1)  # (1, 1, T, T)
`;
const masked = `${MASK}

def compare(x, use_kv_cache: bool):
    kv_cache = KVCache(4, 2048, 8, 64) if use_kv_cache else None
    attn = Attention(512, 8, kv_cache=kv_cache)
    if use_kv_cache:
        return attn(x, causal_mask(x))
    return attn(x)
`;
const unmasked = `

def compare(x, use_kv_cache: bool):
    kv_cache = KVCache(4, 2048, 8, 64) if use_kv_cache else None
    attn = Attention(512, 8, kv_cache=kv_cache)
    return attn(x)
`;
const alwaysCached = `

def generate(x):
    attn = Attention(512, 8, kv_cache=KVCache(4, 2048, 8, 64))
    return attn(x)
`;

describe('ATT008: is_causal off with the cache, when callers in view pass the causal mask (session 37)', () => {
  it('is silent in the file alone: the mask parameter is the caller’s', async () => {
    assert.deepEqual(await findingLines(attention, 'ATT008'), []);
  });

  it('is silent when a call in view passes a causal mask and the cache is built only under a flag (torchtune)', async () => {
    assert.deepEqual(await findingLines(attention + masked, 'ATT008'), []);
  });

  it('still reports when no call in view passes a mask', async () => {
    assert.deepEqual(await findingLines(attention + unmasked, 'ATT008'), [SDPA]);
  });

  it('still reports when the cache is always attached and the call passes no mask', async () => {
    assert.deepEqual(await findingLines(attention + alwaysCached, 'ATT008'), [SDPA]);
  });

  it('cross-file: the same, with the calls in a script importing the module', async () => {
    const script = (body: string) => `import torch
from torchtune.modules import KVCache

from attention import Attention
${body}`;
    const lint = (body: string) => workspaceFindingLines({ 'attention.py': attention, 'compare.py': script(body) }, 'attention.py', 'ATT008');
    assert.deepEqual(await lint(masked), []);
    assert.deepEqual(await lint(unmasked), [SDPA]);
  });
});
