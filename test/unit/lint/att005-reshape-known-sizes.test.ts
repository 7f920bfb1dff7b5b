// Class from the session-27 leftovers: keys split into heads, (B, H, T, hd), "transposed" for q @ kᵀ with a view or
// reshape whose explicit sizes swap their last two, `k.reshape(b, h, d, n)` after `k = proj(x).reshape(b, n, h, d)
// .permute(0, 2, 1, 3)`: a reshape keeps the order of the elements, so it is no transpose. Decided from the sizes the
// code wrote where it made the keys (one axis each, in this function), not from names; silent where the sizes are
// unknown (the keys made by a helper of another file), equal, or not swapped. Written fresh, with the fixed forms.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const MODULE = (keysT: string): string => `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, heads, dim_head):
        super().__init__()
        self.heads = heads
        self.dim_head = dim_head
        self.to_q = nn.Linear(dim, heads * dim_head)
        self.to_k = nn.Linear(dim, heads * dim_head)
        self.to_v = nn.Linear(dim, heads * dim_head)

    def forward(self, x):
        b, n, _ = x.shape
        h, d = self.heads, self.dim_head
        q = self.to_q(x).reshape(b, n, h, d).permute(0, 2, 1, 3)
        k = self.to_k(x).reshape(b, n, h, d).permute(0, 2, 1, 3)
        v = self.to_v(x).reshape(b, n, h, d).permute(0, 2, 1, 3)
        att = torch.matmul(q, ${keysT}) * d ** -0.5
        return att.softmax(dim=-1) @ v
`;

const SQUARE = `import torch


def attend(x, wq, wk, wv, h):
    b, n, c = x.shape
    q = (x @ wq).view(b, n, h, n).transpose(1, 2)
    k = (x @ wk).view(b, n, h, n).transpose(1, 2)
    v = (x @ wv).view(b, n, h, n).transpose(1, 2)
    att = q @ k.view(b, h, n, n) / n ** 0.5
    return att.softmax(dim=-1) @ v
`;

const HEADS = `def split_heads(x, h):
    b, n, c = x.shape
    return x.reshape(b, n, h, c // h).permute(0, 2, 1, 3)
`;

const CALLER = `import torch

from heads import split_heads


def attend(x, wq, wk, wv, h, d):
    b, n, _ = x.shape
    q = split_heads(x @ wq, h)
    k = split_heads(x @ wk, h)
    v = split_heads(x @ wv, h)
    att = q @ k.reshape(b, h, d, n) / d ** 0.5
    return att.softmax(dim=-1) @ v
`;

describe('ATT005: a reshape with the keys own sizes swapped, in place of a transpose', () => {
  it('reports k.reshape(b, h, d, n) of keys made by reshape(b, n, h, d).permute(0, 2, 1, 3)', async () => {
    assert.deepEqual(await findingLines(MODULE('k.reshape(b, h, d, n)'), 'ATT005'), [20]);
  });
  it('stays silent on the fixed form and on a reshape that keeps the order', async () => {
    assert.deepEqual(await findingLines(MODULE('k.transpose(-2, -1)'), 'ATT005'), []);
    assert.deepEqual(await findingLines(MODULE('k.reshape(b, h, n, d).transpose(-2, -1)'), 'ATT005'), []);
  });
  it('stays silent when the last two sizes are equal', async () => {
    assert.deepEqual(await findingLines(SQUARE, 'ATT005'), []);
  });
  it('stays silent when the keys come from a helper of another file (their sizes are not written here)', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'heads.py': HEADS, 'attend.py': CALLER }, 'attend.py', 'ATT005'), []);
  });
});
