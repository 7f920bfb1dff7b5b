// Session 29, training batch j: the classes behind its false findings and misses, as unit tests.
//
// ATT003, class "a fused kernel's scale= chosen by a flag, one branch SDPA's default": `scale=None if self.scale
// else 1.0` (or a name set to None on one path and 1.0 on the other) leaves SDPA's own 1/sqrt(E) on the paths where
// it is None. scale=1.0 is an unscaled softmax only when every path gives 1.0 and nothing scales q or k, so a scale
// that may be None is no evidence; a plain `scale=1.0` (or 1.0 on every branch) still is.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const FLAGGED = `import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, d_x, d_k, scale=True):
        super().__init__()
        self.q = nn.Linear(d_x, d_k, bias=False)
        self.k = nn.Linear(d_x, d_k, bias=False)
        self.v = nn.Linear(d_x, d_k, bias=False)
        self.scale = scale

    def forward(self, x):
        return F.scaled_dot_product_attention(self.q(x), self.k(x), self.v(x), scale=None if self.scale else 1.0)
`;

const BRANCHED = `import torch.nn.functional as F


def attend(query, key, value, unscaled=False):
    scale = None
    if unscaled:
        scale = 1.0
    return F.scaled_dot_product_attention(query, key, value, scale=scale)
`;

describe('trainj29: ATT003, a fused kernel scale= that may be SDPA default on some path', () => {
  it('is silent when a flag picks between None (the default 1/sqrt(E)) and 1.0', async () => {
    assert.deepEqual(await findingLines(FLAGGED, 'ATT003'), []);
    assert.deepEqual(await findingLines(FLAGGED.replace('None if self.scale else 1.0', '1.0 if not self.scale else None'), 'ATT003'), []);
  });

  it('is silent when a name is None on one path and 1.0 on another', async () => {
    assert.deepEqual(await findingLines(BRANCHED, 'ATT003'), []);
  });

  it('still reports scale=1.0 on every path with q and k unscaled', async () => {
    assert.deepEqual(await findingLines(FLAGGED.replace('None if self.scale else 1.0', '1.0'), 'ATT003'), [14]);
    assert.deepEqual(await findingLines(BRANCHED.replace('scale = None\n', 'scale = 1.0\n'), 'ATT003'), [8]);
  });

  it('is silent when the flag is set in another file (cross-file pair)', async () => {
    const model = `import torch.nn as nn
from .layers import SelfAttention


class Encoder(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = nn.ModuleList([SelfAttention(d, d // heads, scale=True) for _ in range(heads)])

    def forward(self, x):
        return [h(x) for h in self.heads]
`;
    const files = { 'pkg/__init__.py': '', 'pkg/layers.py': FLAGGED, 'pkg/model.py': model };
    assert.deepEqual(await workspaceFindingLines(files, 'pkg/layers.py', 'ATT003'), []);
    assert.deepEqual(await workspaceFindingLines(files, 'pkg/model.py', 'ATT003'), []);
  });
});
