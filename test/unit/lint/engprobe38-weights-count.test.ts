// Session 38 (eng-probe-s38): the weights times the number of positions is no misplaced scale (ATT004).
//
// Probes of correct code: `w * N` with `B, N, C = x.shape` (how many times the uniform 1/N each key gets, returned as a
// diagnostic) and attention pooling that keeps a sum's magnitude (`s.softmax(-1) * N`) were reported as a scale after
// the softmax. A count read off an axis that is not the features is no width: no temperature is misplaced. A width
// after the softmax (`/ math.sqrt(self.head_dim)`) and the root of a length (`/ math.sqrt(N)`) stay reported.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

// q, k, v: (B, H, N, d); the weights (B, H, N, N).
const RATIO = (line: string): string => `import math
import torch
import torch.nn as nn


class Attn(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        w = (q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)).softmax(-1)
        ratio = ${line}
        return (w @ v).transpose(1, 2).reshape(B, N, C), ratio
`;

// x: (B, N, C); one learned query; the weights (B, 1, N).
const POOL = `import torch
import torch.nn as nn


class SumKeepingPool(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.q = nn.Parameter(torch.randn(1, 1, dim))
        self.k = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        s = (self.q.expand(B, -1, -1) @ self.k(x).transpose(1, 2)) * C ** -0.5
        w = s.softmax(-1) * N
        return (w @ x).squeeze(1)
`;

describe('engprobe38: the weights times a count of positions (ATT004)', () => {
  it('is silent on the weights against the uniform 1/N (`w * N`)', async () => {
    assert.deepEqual(await findingLines(RATIO('w * N'), 'ATT004'), []);
  });
  it('is silent on the weights divided by the count (`w / N`)', async () => {
    assert.deepEqual(await findingLines(RATIO('w / N'), 'ATT004'), []);
  });
  it('is silent on pooling that keeps a sum\u2019s magnitude', async () => {
    assert.deepEqual(await findingLines(POOL, 'ATT004'), []);
  });
  it('still reports a head width after the softmax', async () => {
    assert.deepEqual(await findingLines(RATIO('w / math.sqrt(self.head_dim)'), 'ATT004'), [17]);
  });
  it('still reports the model width read off the last axis after the softmax', async () => {
    assert.deepEqual(await findingLines(RATIO('w * C'), 'ATT004'), [17]);
  });
  it('still reports the root of the count (a temperature written as a length)', async () => {
    assert.deepEqual(await findingLines(RATIO('w / math.sqrt(N)'), 'ATT004'), [17]);
  });
  it('across files: silent on the pooling module built by a model of another file', async () => {
    const model = `import torch.nn as nn\nfrom pool import SumKeepingPool\n\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.pool = SumKeepingPool(64)\n\n    def forward(self, x):\n        return self.pool(x)\n`;
    assert.deepEqual(await workspaceFindingLines({ 'pool.py': POOL, 'model.py': model }, 'pool.py', 'ATT004'), []);
  });
});
