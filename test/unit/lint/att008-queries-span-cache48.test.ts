// Session 48, eng-s48b: ATT008 precision class from the fresh public ledger of eng-s48d2 (row 1, a from-scratch Qwen2):
// "the whole sequence fed again, only its newest keys joined with the cache".
//
// A decoder that re-runs the whole sequence every step projects the queries from all of it (`q = self.q_proj(x)`) and,
// with a cache, only the newest position's keys (`x_kv = x[:, -1:, :]`, `k = self.k_proj(x_kv)`), joined after the
// cached ones. Its queries are not only the new tokens: they cover the cached positions too, so the keys are as many as
// the queries and SDPA's top-left `is_causal=True` is right. The rule's premise (fewer queries than keys) is not shown:
// the code slices the keys' input from the end of the very tensor the queries are built from whole. Such a call is no
// longer reported; keys projected from the same input as the queries, unsliced, still are.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const RERUN = `import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.q_proj = nn.Linear(dim, dim)
        self.kv_proj = nn.Linear(dim, 2 * dim)

    def forward(self, x, past=None):
        B, T, C = x.shape
        q = self.q_proj(x).view(B, T, self.heads, -1).transpose(1, 2)
        x_new = x[:, -1:, :] if past is not None else x
        k, v = self.kv_proj(x_new).chunk(2, dim=-1)
        k = k.view(B, -1, self.heads, C // self.heads).transpose(1, 2)
        v = v.view(B, -1, self.heads, C // self.heads).transpose(1, 2)
        if past is not None:
            k = torch.cat([past[0], k], dim=2)
            v = torch.cat([past[1], v], dim=2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return y.transpose(1, 2).reshape(B, T, C), (k, v)
`;

/** The buggy twin: the step gets only the new tokens, and the queries are those alone. */
const NEW_ONLY = RERUN.replace('        x_new = x[:, -1:, :] if past is not None else x\n', '        x_new = x\n');

describe('ATT008: queries over the whole sequence, the newest keys joined with the cache (session 48)', () => {
  it('is silent when the keys joined with the cache come from the last positions of the queries\u2019 own input', async () => {
    assert.deepEqual(await findingLines(RERUN, 'ATT008'), []);
    // The same with the slice in an if/else statement and a wider window (`x[:, -n_new:]`).
    const ifElse = RERUN.replace(
      '        x_new = x[:, -1:, :] if past is not None else x\n',
      '        if past is not None:\n            x_new = x[:, -n_new:]\n        else:\n            x_new = x\n',
    ).replace('def forward(self, x, past=None):', 'def forward(self, x, past=None, n_new=1):');
    assert.deepEqual(await findingLines(ifElse, 'ATT008'), []);
  });

  it('reports the twin whose keys and queries both come from the new tokens only', async () => {
    assert.deepEqual(await findingLines(NEW_ONLY, 'ATT008'), [23]);
    // A slice of another tensor (a memory the queries are not built from) is no evidence either.
    const other = NEW_ONLY.replace('def forward(self, x, past=None):', 'def forward(self, x, memory, past=None):').replace(
      '        x_new = x\n',
      '        x_new = memory[:, -1:, :]\n',
    );
    assert.deepEqual(await findingLines(other, 'ATT008'), [23]);
  });

  it('across files: the module judged as the generation loop of another file calls it with the cache', async () => {
    const loop = `import torch

from .attention import SelfAttention


def generate(x, steps):
    attn = SelfAttention(64, 4)
    y, past = attn(x)
    for _ in range(steps):
        y, past = attn(torch.cat([x, y[:, -1:]], dim=1), past)
    return y
`;
    assert.deepEqual(await workspaceFindingLines({ 'lm/attention.py': RERUN, 'lm/generate.py': loop }, 'lm/attention.py', 'ATT008'), []);
    assert.deepEqual(await workspaceFindingLines({ 'lm/attention.py': NEW_ONLY, 'lm/generate.py': loop }, 'lm/attention.py', 'ATT008'), [23]);
  });
});
