// Session 43 (eng-cut-s43a): helpers a cut leaves out, read by their names.
//
// Class 1 (ATT003): a rotary helper called positions first, `apply_rotary_pos_emb(positions, t)` (lucidrains' PaLM,
// CoCa and toolformer blocks, mapped over `(q, k)`), whose definition is not in view (cut away, or imported from a file
// not in the workspace). The helper model returned its first argument, the positions, as the rotated tensor: q lost its
// role, `q = q * self.scale` was no scale of the queries, and the scores were reported unscaled. The rotated tensor is
// now the query or key argument after the positions. An unscaled block stays reported.
//
// Class 2 (ATT004): grouped-query heads repeated by a method of the class not in view (`k_attn = self._expand_kv(k)`):
// the name read as a packed key/value projection (its last axis the model width), so `math.sqrt(k_attn.size(-1))` on
// per-head scores was reported as the model width. A method named for repeating or expanding heads now hands back the
// queries, keys or values it was given. A factor that is the model width is still reported.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const PALM = (scale: string, rotaryDef = ''): string => `import torch
from torch import einsum, nn
from einops import rearrange
${rotaryDef}

class ParallelBlock(nn.Module):
    def __init__(self, dim, dim_head=64, heads=8):
        super().__init__()
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.fused = nn.Linear(dim, dim_head * heads + 2 * dim_head, bias=False)
        self.split = (dim_head * heads, dim_head, dim_head)

    def forward(self, x):
        n, device = x.shape[1], x.device
        q, k, v = self.fused(x).split(self.split, dim=-1)
        q = rearrange(q, "b n (h d) -> b h n d", h=self.heads)
        positions = self.rotary_positions(n, device)
        q, k = map(lambda t: apply_rotary_pos_emb(positions, t), (q, k))
        ${scale}
        sim = einsum("b h i d, b j d -> b h i j", q, k)
        attn = sim.softmax(dim=-1)
        out = einsum("b h i j, b j d -> b h i d", attn, v)
        return rearrange(out, "b h n d -> b n (h d)")
`;

const ROTARY = `import torch


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(pos, t):
    return (t * pos.cos()) + (rotate_half(t) * pos.sin())
`;

const GQA = (factor: string): string => `import math
import torch
import torch.nn as nn


class GroupedAttention(nn.Module):
    def __init__(self, n_embd, n_head, n_kv_head):
        super().__init__()
        self.n_head, self.n_kv_head = n_head, n_kv_head
        self.head_dim = n_embd // n_head
        self.wq = nn.Linear(n_embd, n_head * self.head_dim)
        self.wk = nn.Linear(n_embd, n_kv_head * self.head_dim)
        self.wv = nn.Linear(n_embd, n_kv_head * self.head_dim)

    def forward(self, x):
        B, T, C = x.size()
        q = self.wq(x).view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        k = self.wk(x).view(B, T, self.n_kv_head, self.head_dim).transpose(1, 2)
        v = self.wv(x).view(B, T, self.n_kv_head, self.head_dim).transpose(1, 2)
        k_attn = self._expand_kv(k)
        v_attn = self._expand_kv(v)
        att = q @ k_attn.transpose(-2, -1)
        att = att / ${factor}
        att = att.softmax(dim=-1)
        return (att @ v_attn).transpose(1, 2).reshape(B, T, C)
`;

describe('cut43a: helpers not in view (rotary positions first, repeated kv heads)', () => {
  it('ATT003: a scaled block with an unseen positions-first rotary helper is silent', async () => {
    assert.deepEqual(await findingLines(PALM('q = q * self.scale'), 'ATT003'), []);
  });
  it('ATT003: the same block without the scale is still reported (the bug)', async () => {
    assert.deepEqual(await findingLines(PALM('pass'), 'ATT003'), [22]);
  });
  it('ATT003: in a workspace, imported from a file not in it or from one that is', async () => {
    const block = (scale: string) => PALM(scale, 'from rotary import apply_rotary_pos_emb\n');
    // rotary.py not in the workspace: the helper is not in view, as in a cut.
    assert.deepEqual(await workspaceFindingLines({ 'block.py': block('q = q * self.scale') }, 'block.py', 'ATT003'), []);
    assert.deepEqual(await workspaceFindingLines({ 'block.py': block('pass') }, 'block.py', 'ATT003'), [23]);
    // rotary.py in the workspace: its code decides (the scaled block stays silent).
    assert.deepEqual(await workspaceFindingLines({ 'rotary.py': ROTARY, 'block.py': block('q = q * self.scale') }, 'block.py', 'ATT003'), []);
  });
  it('ATT004: a head width read off keys repeated by an unseen method is silent', async () => {
    assert.deepEqual(await findingLines(GQA('math.sqrt(k_attn.size(-1))'), 'ATT004'), []);
  });
  it('ATT004: the model width on the same scores is still reported (the bug)', async () => {
    assert.deepEqual(await findingLines(GQA('math.sqrt(C)'), 'ATT004'), [23]);
  });
  it('ATT004: with the method defined in the class, the same answers', async () => {
    const withMethod = (factor: string) =>
      GQA(factor) +
      `
    def _expand_kv(self, t):
        return t.repeat_interleave(self.n_head // self.n_kv_head, dim=1)
`;
    assert.deepEqual(await findingLines(withMethod('math.sqrt(k_attn.size(-1))'), 'ATT004'), []);
    assert.deepEqual(await findingLines(withMethod('math.sqrt(C)'), 'ATT004'), [23]);
  });
});
