// Session 47 (eng-s47c): the head axis lost at a module call whose `forward` splits its input into heads.
//
// Class: a small module of the file, built by the attention class (`self.to_k = SplitHeads(dim, heads)`), whose
// forward projects its input and splits the width into heads with einops (`rearrange(self.proj(x), "b n (h d) -> b h
// n d", h=self.heads)`), with no attention word of its own (no `transpose`, `scale`, `mask`). The parser copies only
// the function and class bodies whose text says attention (analysis/prefilters.ts, body; syntax/tree.ts: RELEVANT), so
// the module's class was an opaque node: a call of its instance returned a tensor with no axes, and a size read off
// the head axis of its output (`k.size(1)` of (batch, heads, length, head width) keys) was not known to count heads.
// An einops pattern that splits or merges an axis (a group of two axes before or after its arrow) now makes a body
// worth copying, as `transpose` and `permute` already did (a view then `.transpose(1, 2)` was read before).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const SPLIT_EINOPS = `class SplitHeads(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.proj = nn.Linear(dim, dim, bias=False)

    def forward(self, x):
        return rearrange(self.proj(x), "b n (h d) -> b h n d", h=self.heads)
`;

const IMPORTS = `import math

import torch
import torch.nn as nn
from einops import rearrange
`;

/** A cross-attention block whose helper reads the key width off axis `axis` of keys split by SplitHeads. */
const BLOCK = (axis: string): string => `class CrossBlock(nn.Module):
    def __init__(self, dim, heads=4):
        super().__init__()
        self.to_q = SplitHeads(dim, heads)
        self.to_k = SplitHeads(dim, heads)
        self.to_v = SplitHeads(dim, heads)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, context):
        y = self.scores_then_mix(self.to_q(x), self.to_k(context), self.to_v(context))
        return self.out(rearrange(y, "b h n d -> b n (h d)"))

    @staticmethod
    def scores_then_mix(q, k, v):
        logits = torch.matmul(q, k.transpose(-1, -2))
        logits = logits / math.sqrt(k.shape[${axis}])
        return torch.matmul(torch.softmax(logits, dim=-1), v)
`;

const SPLIT_LAST = `import torch
import torch.nn as nn
from einops import rearrange


class HeadView(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.lin = nn.Linear(dim, dim)

    def forward(self, x):
        return rearrange(self.lin(x), "b n (h c) -> b n h c", h=self.heads)


class Encoder(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.q = HeadView(dim, heads)
        self.k = HeadView(dim, heads)
        self.v = HeadView(dim, heads)

    def forward(self, x):
        q, k, v = self.q(x), self.k(x), self.v(x)
        logits = torch.einsum("bihd,bjhd->bhij", q, k) / q.size(AXIS) ** 0.5
        return torch.einsum("bhij,bjhd->bihd", logits.softmax(dim=-1), v)
`;

describe('ATT004 heads split by a module the attention class builds (session 47)', () => {
  it('reports a key width read off the head axis of keys an einops module split into heads', async () => {
    const src = `${IMPORTS}\n\n${SPLIT_EINOPS}\n\n${BLOCK('1')}`;
    assert.deepEqual(await findingLines(src, 'ATT004'), [33]);
  });

  it('stays silent on the fixed form, the keys last axis (each head width)', async () => {
    const src = `${IMPORTS}\n\n${SPLIT_EINOPS}\n\n${BLOCK('-1')}`;
    assert.deepEqual(await findingLines(src, 'ATT004'), []);
  });

  it('reports the head count read off queries a module split as (batch, length, heads, width)', async () => {
    assert.deepEqual(await findingLines(SPLIT_LAST.replace('AXIS', '2'), 'ATT004'), [25]);
    assert.deepEqual(await findingLines(SPLIT_LAST.replace('AXIS', '-1'), 'ATT004'), []);
  });

  it('keeps the module opaque without a split: a plain projection module gives no head axis to read', async () => {
    const plain = SPLIT_LAST.replace('return rearrange(self.lin(x), "b n (h c) -> b n h c", h=self.heads)', 'return self.lin(x)');
    assert.deepEqual(await findingLines(plain.replace('AXIS', '2'), 'ATT004'), []);
  });

  it('reads the module across files: SplitHeads in layers.py, the block in model.py', async () => {
    const layers = `import torch.nn as nn\nfrom einops import rearrange\n\n\n${SPLIT_EINOPS}`;
    const model = (axis: string): string => `${IMPORTS}\nfrom layers import SplitHeads\n\n\n${BLOCK(axis)}`;
    assert.deepEqual(await workspaceFindingLines({ 'layers.py': layers, 'model.py': model('1') }, 'model.py', 'ATT004'), [25]);
    assert.deepEqual(await workspaceFindingLines({ 'layers.py': layers, 'model.py': model('-1') }, 'model.py', 'ATT004'), []);
  });
});
