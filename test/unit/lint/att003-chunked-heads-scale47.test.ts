// Session 47 (eng-s47a, class found by eng-s47d's fresh ledger): ATT003 and a scale folded into q before q is cut
// into one piece per head with `torch.chunk` and the heads are attended one by one in a loop.
//
// Class: apple/ml-cvnets' `forward_tracing` style: `query = query * self.scaling` (`head_dim ** -0.5`), then `query =
// torch.chunk(query, chunks=self.num_heads, dim=-1)` and, per head, `softmax(matmul(query[h], key[h].transpose(-1,
// -2)))`. The pieces of one chunk are equal, and `query[h]` with an index the code does not state is any of them, with
// the facts of all: the scale folded in before the split. It was read as unknown, and the scaled queries as unscaled.
// Without the scale, the same loop is reported.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const PER_HEAD = (scaled: string): string => `import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scaling = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, x):
        q, k, v = torch.chunk(self.qkv(x), chunks=3, dim=-1)
        q = ${scaled}
        q = torch.chunk(q, chunks=self.heads, dim=-1)
        k = torch.chunk(k, chunks=self.heads, dim=-1)
        v = torch.chunk(v, chunks=self.heads, dim=-1)
        out = []
        for h in range(self.heads):
            w = self.softmax(torch.matmul(q[h], k[h].transpose(-1, -2)))
            out.append(torch.matmul(w, v[h]))
        return torch.cat(out, dim=-1)
`;

describe('ATT003 scale folded into q before a chunk per head (session 47)', () => {
  it('is silent when q is scaled before the chunk', async () => {
    assert.deepEqual(await findingLines(PER_HEAD('q * self.scaling'), 'ATT003'), []);
  });

  it('reports the same loop without the scale', async () => {
    assert.deepEqual(await findingLines(PER_HEAD('q.contiguous()'), 'ATT003'), [22]);
  });

  it('reads the scale a caller of another workspace file folds in', async () => {
    const ATTEND = `import torch


def per_head_attention(q, k, v, heads):
    q = torch.chunk(q, chunks=heads, dim=-1)
    k = torch.chunk(k, chunks=heads, dim=-1)
    v = torch.chunk(v, chunks=heads, dim=-1)
    out = []
    for h in range(heads):
        w = torch.softmax(torch.matmul(q[h], k[h].transpose(-1, -2)), dim=-1)
        out.append(torch.matmul(w, v[h]))
    return torch.cat(out, dim=-1)
`;
    const MODEL = (q: string): string => `import torch.nn as nn

from attend import per_head_attention


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.scaling = (dim // heads) ** -0.5
        self.to_q = nn.Linear(dim, dim)
        self.to_k = nn.Linear(dim, dim)
        self.to_v = nn.Linear(dim, dim)

    def forward(self, x):
        q, k, v = self.to_q(x), self.to_k(x), self.to_v(x)
        return per_head_attention(${q}, k, v, self.heads)
`;
    assert.deepEqual(await workspaceFindingLines({ 'attend.py': ATTEND, 'model.py': MODEL('q * self.scaling') }, 'attend.py', 'ATT003'), []);
    assert.deepEqual(await workspaceFindingLines({ 'attend.py': ATTEND, 'model.py': MODEL('q') }, 'attend.py', 'ATT003'), [10]);
  });
});
