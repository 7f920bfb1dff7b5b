// Session 36, reg-fill-s36: ATT005, class "a helper written for 2-D tensors, transposing the keys by the library's
// function form with axes written from the front, called from another file on keys split into heads".
//
// `def attention(q, k, v)` computing `q @ torch.transpose(k, 0, 1)` is right on 2-D (seq, d) keys and wrong on 4-D
// (B, H, S, d_k) ones (it swaps batch and heads). The helper alone does not show the rank; the files importing it do,
// as for the method form `k.transpose(1, 2)` already: a call with keys split into heads is reported, calls with 2-D
// keys only, and the fixed `torch.transpose(k, -2, -1)`, are not.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const core = (transpose: string): string => `import math

import torch


def attention(q, k, v):
    scores = q @ ${transpose} / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-1) @ v


def split_heads(x, heads):
    b, s, d = x.shape[0], x.shape[1], x.shape[2]
    return x.reshape(b, s, heads, d // heads).transpose(1, 2)
`;
const LINE = 7;

const LAYER = `from torch import nn

from .core import attention, split_heads


class MultiHead(nn.Module):
    def __init__(self, d_model, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        out = attention(split_heads(q, self.heads), split_heads(k, self.heads), split_heads(v, self.heads))
        return out.transpose(1, 2).flatten(2)
`;

const TWO_D = `import torch

from .core import attention


def demo():
    x = torch.randn(6, 16)
    return attention(x, x, x)
`;

const files = (transpose: string, caller: string): Record<string, string> => ({
  'pkg/__init__.py': '',
  'pkg/core.py': core(transpose),
  'pkg/caller.py': caller,
});

describe('ATT005: torch.transpose(k, 0, 1) judged as importing files call it (session 36)', () => {
  it('reports the helper called on keys split into heads in another file', async () => {
    assert.deepEqual(await workspaceFindingLines(files('torch.transpose(k, 0, 1)', LAYER), 'pkg/core.py', 'ATT005'), [LINE]);
    assert.deepEqual(await workspaceFindingLines(files('torch.swapaxes(k, 0, 1)', LAYER), 'pkg/core.py', 'ATT005'), [LINE]);
  });

  it('is silent when the callers pass 2-D keys, and on the fixed transpose', async () => {
    assert.deepEqual(await workspaceFindingLines(files('torch.transpose(k, 0, 1)', TWO_D), 'pkg/core.py', 'ATT005'), []);
    assert.deepEqual(await workspaceFindingLines(files('torch.transpose(k, -2, -1)', LAYER), 'pkg/core.py', 'ATT005'), []);
  });

  it('is silent on the helper alone, whose keys have no rank in view', async () => {
    assert.deepEqual(await findingLines(core('torch.transpose(k, 0, 1)'), 'ATT005'), []);
  });
});
