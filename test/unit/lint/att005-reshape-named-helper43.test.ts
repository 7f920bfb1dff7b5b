// Session 43, eng-cut-s43b: ATT005 (analysis, names.ts), class "a self-method not in view whose name holds the token
// `to` beside a word of layout (`split_to_heads`, `shape_to_per_head`)" (recorded by eng-cut-s43a in
// /work/wt/s43-classes.md from a method cut of a self-attention layer).
//
// An unresolved `self.xxx(...)` whose name reads as a projection (`to_q`, `to_qkv`, `proj`, `fc`) is modelled as a
// Linear layer that keeps its input's rank. `to` alone made `split_to_heads` / `shape_to_per_head` such a projection:
// given (B, T, D) input they "returned" 3-D keys, and `k.transpose(2, 3)` of the 4-D heads the real helper makes was
// reported as swapping the wrong axes. A `to` name that also names a change of layout (split, shape, reshape, view,
// heads, merge, transpose, permute, batches, flatten) is no projection: the helper's result has a rank nothing in view
// shows, and the transpose is not judged. Projections keep their reading (`to_k`, `to_qkv`, `k_proj`).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const CUT = `import math

import torch
from torch import nn


class SelfAttn(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.wk = nn.Linear(d, d)
        self.wq = nn.Linear(d, d)
        self.heads = heads

    def attend(self, x):
        B, T, D = x.shape
        q = self.split_to_heads(self.wq(x), B, T, D)
        k = self.split_to_heads(self.wk(x), B, T, D)
        s = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(D // self.heads)
        return s.softmax(-1)
`;

describe('ATT005: a layout helper named with `to` is no projection (session 43)', () => {
  it('is silent on keys from `self.split_to_heads(...)` (not in view) transposed on axes 2 and 3', async () => {
    assert.deepEqual(await findingLines(CUT, 'ATT005'), []);
    assert.deepEqual(await findingLines(CUT.replace(/split_to_heads/g, 'shape_to_per_head'), 'ATT005'), []);
  });

  it('is silent with the helper in view: it makes (B, H, T, d) heads', async () => {
    const src = CUT.replace(
      '    def attend(self, x):',
      `    def split_to_heads(self, t, B, T, D):
        return t.view(B, T, self.heads, D // self.heads).transpose(1, 2)

    def attend(self, x):`,
    );
    assert.deepEqual(await findingLines(src, 'ATT005'), []);
  });

  it('still reports 3-D keys from a projection named with `to` (`to_k`) transposed on axes 2 and 3', async () => {
    // The real bug of the class: the keys never split into heads.
    const src = `import math

import torch
from torch import nn


class SelfAttn(nn.Module):
    def attend(self, x):
        B, T, D = x.shape
        q = self.to_q(x)
        k = self.to_k(x)
        s = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(D)
        return s.softmax(-1)
`;
    assert.deepEqual(await findingLines(src, 'ATT005'), [12]);
  });

  it('is silent across files: the helper comes from a base class in another module', async () => {
    const files = {
      'attn/base.py': `from torch import nn


class HeadSplit(nn.Module):
    def split_to_heads(self, t, B, T, D):
        return t.view(B, T, self.heads, D // self.heads).transpose(1, 2)
`,
      'attn/layer.py': CUT.replace('from torch import nn\n', 'from torch import nn\n\nfrom .base import HeadSplit\n').replace(
        'class SelfAttn(nn.Module):',
        'class SelfAttn(HeadSplit):',
      ),
    };
    assert.deepEqual(await workspaceFindingLines(files, 'attn/layer.py', 'ATT005'), []);
  });
});
