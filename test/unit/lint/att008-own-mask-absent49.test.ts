// Session 49, eng-s49b: class "is_causal tests for None the very mask the call passes" (ATT008, open item of the brief:
// `causalIs` drops every flag whose text holds `is None`).
//
// `F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, is_causal=(attn_mask is None))` never sets both, so
// the "both set" check rightly stays silent; but the flag is True on every call that passes no mask, and on keys joined
// with a KV cache that puts SDPA's top-left causal mask over the cached keys (one new query sees only the first key).
// The flag was dropped from the cache check too. It is now read from the code's structure (the flag is `m is None` of
// the very expression passed as attn_mask, a mask that may be None there), not from names, and only where no context
// in view settles it. Evidence: regression case b16-06 (its attention file alone; the folder's contexts still leave it
// silent in workspace mode) and the fresh ledger of session 48 (d2 row 2: the same contract written with `self.is_causal
// if mask is None else False`, judged a latent true finding).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const ATTN = (flag: string, join = true) => `import torch
import torch.nn.functional as F


def attend(q, k, v, mask=None, kv_cache=None):
    if kv_cache is not None:
        ${join ? 'k = torch.cat([kv_cache[0], k], dim=2)' : 'k = kv_cache[0]'}
        v = torch.cat([kv_cache[1], v], dim=2)
    attn_mask = None
    if mask is not None:
        attn_mask = mask
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, is_causal=${flag})
    return out, (k, v)
`;

const CALLER = (call: string) => `import torch

from attention import attend


def step(q, k, v, cache, T, S):
    keep = torch.ones(T, S, dtype=torch.bool).tril(diagonal=S - T)
    return ${call}
`;

describe('eng-s49b ATT008: is_causal that tests for None the mask the same call passes', () => {
  it('natural: keys joined with a cache, is_causal=(attn_mask is None): reported at is_causal', async () => {
    assert.deepEqual(await findingLines(ATTN('(attn_mask is None)'), 'ATT008'), [12]);
  });
  it('twins: no cache joined, or a flag testing another name: silent', async () => {
    assert.deepEqual(await findingLines(ATTN('(attn_mask is None)', false).replace('        v = torch.cat([kv_cache[1], v], dim=2)\n', ''), 'ATT008'), []);
    assert.deepEqual(await findingLines(ATTN('(kv_cache is None)'), 'ATT008'), []);
    assert.deepEqual(await findingLines(ATTN('attn_mask is not None'), 'ATT008'), []);
  });
  it('cross-file: a caller that always passes its bottom-right mask settles the flag False: silent; one that passes none: reported', async () => {
    const masked = { 'attention.py': ATTN('(attn_mask is None)'), 'decode.py': CALLER('attend(q, k, v, mask=keep, kv_cache=cache)') };
    assert.deepEqual(await workspaceFindingLines(masked, 'attention.py', 'ATT008'), []);
    const bare = { 'attention.py': ATTN('(attn_mask is None)'), 'decode.py': CALLER('attend(q, k, v, kv_cache=cache)') };
    assert.deepEqual(await workspaceFindingLines(bare, 'attention.py', 'ATT008'), [12]);
  });
});
