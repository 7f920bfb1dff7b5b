// Session 48 weak-source audit of ATT004 (eng-s48a): "scaled twice" at a fused kernel called without `scale=` was also
// decided by a factor on q or k known only by a name that says scale (`q = q * self.q_scale`) whose value the code does
// not show. On the readable sets that branch decides no true finding (the one true finding of this message, OPT's
// `q_proj(x) * self.scaling` before SDPA, shows `self.scaling = self.head_dim ** -0.5`), and a learned per-head gain
// initialised to ones, multiplied into q before SDPA keeps its own 1/sqrt(E), is correct code it misread. The class: a
// name is no evidence that a factor is a 1/sqrt(d) scale; only a factor whose value the code shows to be one (here, or
// passed in by a caller in view) is a first scaling that the kernel's default repeats.
// Written fresh: the learned gain (silent), its twin with the gain bound to head_dim ** -0.5 (reported), and a helper of
// another file handed the factor by its caller: a learned gain (silent) or 1/sqrt(head_dim) (reported).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const LAYER = (gain: string): string => `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.q_scale = ${gain}

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        q = q * self.q_scale
        return F.scaled_dot_product_attention(q, k, v)
`;

const HELPER = `import torch.nn.functional as F


def attend(q, k, v, q_scale):
    q = q * q_scale
    return F.scaled_dot_product_attention(q, k, v)
`;

const CALLER = (gain: string): string => `import torch
import torch.nn as nn

from ops import attend


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.gain = ${gain}

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        return attend(q, k, v, self.gain)
`;

describe('ATT004: a factor named as a scale before a fused kernel (session 48)', () => {
  it('says nothing of a learned gain multiplied into q before SDPA', async () => {
    assert.deepEqual(await findingLines(LAYER('nn.Parameter(torch.ones(heads, 1, 1))'), 'ATT004'), []);
  });

  it('reports q scaled by head_dim ** -0.5 before SDPA scales again', async () => {
    assert.deepEqual(await findingLines(LAYER('(dim // heads) ** -0.5'), 'ATT004'), [17]);
  });

  it('says nothing when the caller in another file hands the helper a learned gain', async () => {
    const files = { 'ops.py': HELPER, 'model.py': CALLER('nn.Parameter(torch.ones(heads, 1, 1))') };
    assert.deepEqual(await workspaceFindingLines(files, 'ops.py', 'ATT004'), []);
  });

  it('reports the helper when the caller in another file hands it 1/sqrt(head_dim)', async () => {
    const files = { 'ops.py': HELPER, 'model.py': CALLER('self.head_dim ** -0.5') };
    assert.deepEqual(await workspaceFindingLines(files, 'ops.py', 'ATT004'), [6]);
  });
});
