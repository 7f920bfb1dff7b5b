// Session 48 weak-source audit of ATT004 (eng-s48a): a helper that divides the scores by its own parameter
// (`def attention(q, k, v, dk)`, `/ dk`) with no call anywhere in view was reported as dividing by a dimension, its
// parameter's name read as one. The rule already left such a parameter to the callers when a call in view passes
// something else than a plain dimension (`attention(q, k, v, math.sqrt(d))`); with no call in view at all the caller is
// not shown either (ATT003 leaves such a helper's missing scale to its callers alike). On the readable sets no true
// finding is such a helper. The class: a parameter's name is no evidence of what an unseen caller passes.
// Written fresh: the helper alone (silent), its twin called in the file with the width (reported), and callers in an
// importing file passing the width (reported) or its root (silent).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const HELPER = `import torch


def attention(q, k, v, dk):
    scores = torch.matmul(q, k.transpose(-2, -1)) / dk
    return torch.softmax(scores, dim=-1) @ v
`;

const CALLER = (arg: string): string => `import math

import torch.nn as nn

from attn import attention


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        return attention(q, k, v, ${arg})
`;

describe('ATT004: a helper dividing by its parameter, with no caller in view (session 48)', () => {
  it('says nothing when no call of the helper is in view', async () => {
    assert.deepEqual(await findingLines(HELPER, 'ATT004'), []);
  });

  it('reports it when the file calls it with the head width', async () => {
    const src = `${HELPER}

def run(q, k, v):
    return attention(q, k, v, q.size(-1))
`;
    assert.deepEqual(await findingLines(src, 'ATT004'), [5]);
  });

  it('reports it when an importing file passes the head width', async () => {
    const files = { 'attn.py': HELPER, 'model.py': CALLER('self.head_dim') };
    assert.deepEqual(await workspaceFindingLines(files, 'attn.py', 'ATT004'), [5]);
  });

  it('says nothing when the importing file passes its square root', async () => {
    const files = { 'attn.py': HELPER, 'model.py': CALLER('math.sqrt(self.head_dim)') };
    assert.deepEqual(await workspaceFindingLines(files, 'attn.py', 'ATT004'), []);
  });
});
