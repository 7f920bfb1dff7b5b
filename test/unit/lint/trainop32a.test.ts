// Session 32 (trainop32a, training folders o and p). Three classes met first in the new training folders:
// 1. ATT008: a path condition that proves the KV cache empty (the keys' length minus the queries' is zero, or the two
//    lengths equal), also through a local flag bound once to it (`use_sdpa = self.training and past_len == 0`), makes a
//    top-left `is_causal=True` right there (t22o-03-clean).
import { strict as assert } from 'node:assert';
import { findingLines } from './helpers';

const GUARDED_FAST_PATH = `import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, past=None):
        b, t, _ = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        if past is not None:
            k = torch.cat([past[0], k], dim=2)
            v = torch.cat([past[1], v], dim=2)
        k_len = k.shape[2]
        past_len = k_len - t
        use_fast = self.training and past_len == 0
        if use_fast:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            scores = (q @ k.transpose(-2, -1)) / self.head_dim ** 0.5
            rows = torch.arange(t, device=x.device)[:, None] + past_len
            cols = torch.arange(k_len, device=x.device)[None, :]
            scores = scores.masked_fill(cols > rows, float("-inf"))
            y = scores.softmax(dim=-1) @ v
        return self.out(y.transpose(1, 2).reshape(b, t, -1)), (k, v)
`;

const sub = (from: string, to: string): string => {
  assert.ok(GUARDED_FAST_PATH.includes(from), from);
  return GUARDED_FAST_PATH.replace(from, to);
};

describe('lint: a path condition proving the KV cache empty silences the cached-causal reading (ATT008)', () => {
  it('is_causal=True under a flag bound to `... and past_len == 0`, past_len = keys length - query length: silent', async () => {
    assert.deepEqual(await findingLines(GUARDED_FAST_PATH, 'ATT008'), []);
  });
  it('the guard written in place (`if past_len == 0:`, `if not past_len:`, `if k_len - t == 0:`): silent', async () => {
    assert.deepEqual(await findingLines(sub('if use_fast:', 'if past_len == 0:'), 'ATT008'), []);
    assert.deepEqual(await findingLines(sub('if use_fast:', 'if not past_len:'), 'ATT008'), []);
    assert.deepEqual(await findingLines(sub('if use_fast:', 'if k_len - t == 0:'), 'ATT008'), []);
  });
  it('the SDPA call in the arm after a cached test failed (`if past_len > 0:` / `if past_len:` ... else): silent', async () => {
    const flipped = (cond: string) =>
      sub(
        'use_fast = self.training and past_len == 0\n        if use_fast:\n            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n        else:',
        `if ${cond}:\n            y = None\n        else:\n            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n        if y is None:`,
      );
    assert.deepEqual(await findingLines(flipped('past_len > 0'), 'ATT008'), []);
    assert.deepEqual(await findingLines(flipped('past_len'), 'ATT008'), []);
    assert.deepEqual(await findingLines(flipped('0 != past_len'), 'ATT008'), []);
  });
  it('the two lengths compared through a flag (`same = k.shape[2] == q.shape[2]`): silent', async () => {
    assert.deepEqual(await findingLines(sub('use_fast = self.training and past_len == 0', 'use_fast = k.shape[2] == q.shape[2]'), 'ATT008'), []);
  });
  it('no guard at all on cached keys (the bug the class is about): reported at is_causal', async () => {
    assert.deepEqual(await findingLines(sub('self.training and past_len == 0', 'self.training'), 'ATT008'), [24]);
  });
  it('a zero test joined by `or`, or a cached arm (`past_len > 0` holding): still reported', async () => {
    assert.deepEqual(await findingLines(sub('self.training and past_len == 0', 'self.training or past_len == 0'), 'ATT008'), [24]);
    assert.deepEqual(await findingLines(sub('self.training and past_len == 0', 'past_len > 0'), 'ATT008'), [24]);
    assert.deepEqual(await findingLines(sub('self.training and past_len == 0', 'not (past_len == 0)'), 'ATT008'), [24]);
  });
  it('the length read before the keys are joined with the cache (always zero, proves nothing): still reported', async () => {
    const early = sub('        k_len = k.shape[2]\n', '').replace(
      '        if past is not None:\n',
      '        k_len = k.shape[2]\n        if past is not None:\n',
    );
    assert.deepEqual(await findingLines(early, 'ATT008'), [24]);
  });
  it('a difference read off other tensors, or a flag bound twice: still reported', async () => {
    assert.deepEqual(await findingLines(sub('k_len = k.shape[2]', 'k_len = v.shape[2] + 0 * k.shape[2]'), 'ATT008'), [24]);
    const twice = sub('        if use_fast:', '        if past is not None:\n            use_fast = True\n        if use_fast:');
    assert.deepEqual(await findingLines(twice, 'ATT008'), [26]);
  });
});
