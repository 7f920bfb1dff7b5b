// Session 32 (rename32): findings that hung on a name. The metamorphic rewrite `rename` (an attention function's
// locals renamed: queries → n2, scaled → n9, sim → n15) lost findings whose evidence was, in part, a name. Each class
// below now rests on what the code does, and each is checked three ways: the natural example with neutral names
// (reported), its fixed form (silent), and a correct form whose names mislead (silent).
import { strict as assert } from 'node:assert';
import { findingLines } from './helpers';

// Scores of two slices of one fused projection, normalised, then mixed with a third slice over the very axis the
// softmax normalised: attention weights by what the code does with them, whatever the slices are called.
const FUSED_SLICES = `import torch
import torch.nn.functional as F
from einops import rearrange
from torch import nn


class Mixer(nn.Module):
    def __init__(self, width: int = 256, heads: int = 4):
        super().__init__()
        self.width = width
        self.heads = heads
        self.fused = nn.Linear(width, width * 3)
        self.out = nn.Linear(width, width)

    def forward(self, t):
        parts = rearrange(self.fused(t), "b n (h d p) -> p b h n d", h=self.heads, p=3)
        a, b, c = parts[0], parts[1], parts[2]
        s = torch.einsum("bhid, bhjd -> bhij", a, b)
        w = F.softmax(s, dim=-1) / (self.width ** 0.5)
        y = torch.einsum("bhij, bhjd -> bhid", w, c)
        return self.out(rearrange(y, "b h n d -> b n (h d)"))
`;

// A router: token features against a learned matrix (one row per expert), softmax, gates scaled on purpose and mixed
// with the experts' outputs. Named as attention, but the scores' right operand is a learned parameter, not data.
const ROUTER_NAMED_AS_ATTENTION = `import torch
import torch.nn.functional as F
from torch import nn


class TopKRouter(nn.Module):
    def __init__(self, dim: int, n_experts: int, routed_scaling_factor: float = 2.5):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.experts = nn.Parameter(torch.randn(n_experts, dim) * 0.02)
        self.routed_scaling_factor = routed_scaling_factor

    def forward(self, x, expert_out):
        queries = self.proj(x)
        attn = torch.einsum("btd,ed->bte", queries, self.experts)
        attn_weights = F.softmax(attn, dim=-1) * self.routed_scaling_factor
        return torch.einsum("bte,bted->btd", attn_weights, expert_out)
`;

// CNTK: `element_select(flag, value_if_true, value_if_false)` is the library's where; the divided scores reach the
// softmax through it (before, the division was seen only when a name such as `scaled` made it evaluated eagerly).
const CNTK_SELECT = `import cntk as C


def attend(query, key, value):
    n = C.Constant(query.shape[-1], dtype="float32")
    b2 = C.sequence.unpack(key, padding_value=0, no_mask_output=True)
    c2 = C.sequence.unpack(value, padding_value=0, no_mask_output=True)
    live = C.sequence.unpack(key, padding_value=0).outputs[1]
    s = C.times_transpose(query, b2)
    t = s / n
    t = C.element_select(live, t, C.constant(-1e30))
    w = C.softmax(t, axis=-1)
    return C.times(w, c2)
`;

// Logits the code shows nothing of (an MLP over pairs) filled with a large negative value where a keep mask (a pair
// product of a mask) is True, then normalised by a softmax: judged by the softmax that reads them, not by the name
// (`sim`, `energy`, `dots`) the logits happen to have.
const OPAQUE_LOGITS = `import torch
from einops import rearrange
from torch import einsum, nn


class PairAttention(nn.Module):
    def __init__(self, dim: int, heads: int = 4, hidden: int = 16):
        super().__init__()
        self.heads = heads
        self.to_v = nn.Linear(dim, dim)
        self.score_mlp = nn.Sequential(nn.Linear(2 * dim, hidden), nn.ReLU(), nn.Linear(hidden, heads))

    def forward(self, x, mask):
        n = x.shape[1]
        v = rearrange(self.to_v(x), "b n (h d) -> b h n d", h=self.heads)
        pair = torch.cat((x[:, :, None].expand(-1, -1, n, -1), x[:, None].expand(-1, n, -1, -1)), dim=-1)
        u = rearrange(self.score_mlp(pair), "b i j h -> b h i j")
        both = mask[:, None, :, None] * mask[:, None, None, :]
        u.masked_fill_(both, -torch.finfo(u.dtype).max)
        p = u.softmax(dim=-1)
        return einsum("b h i j, b h j d -> b h i d", p, v)
`;

// Correct, with a misleading name: `pad_mask` is True at real tokens by construction (`ids != pad_id`), and the code
// fills where it is False.
const KEEP_MASK_NAMED_PAD = `import torch
from einops import rearrange
from torch import einsum, nn


class PairAttention(nn.Module):
    def __init__(self, dim: int, heads: int = 4, hidden: int = 16, pad_id: int = 0):
        super().__init__()
        self.heads = heads
        self.pad_id = pad_id
        self.embed = nn.Embedding(1000, dim)
        self.to_v = nn.Linear(dim, dim)
        self.score_mlp = nn.Sequential(nn.Linear(2 * dim, hidden), nn.ReLU(), nn.Linear(hidden, heads))

    def forward(self, ids):
        x = self.embed(ids)
        n = x.shape[1]
        pad_mask = ids != self.pad_id
        v = rearrange(self.to_v(x), "b n (h d) -> b h n d", h=self.heads)
        pair = torch.cat((x[:, :, None].expand(-1, -1, n, -1), x[:, None].expand(-1, n, -1, -1)), dim=-1)
        u = rearrange(self.score_mlp(pair), "b i j h -> b h i j")
        u = u.masked_fill(~pad_mask[:, None, None, :], float("-inf"))
        p = u.softmax(dim=-1)
        return einsum("b h i j, b h j d -> b h i d", p, v)
`;

// Keys joined with pieces of a parameter (`carry[0]`) and handed back to the caller in the parameter's own layout
// (`return y, (k, v)`): the caller passes the extended keys back in on its next call, a KV cache whatever the
// parameter is called (before, only a cache-like name, `past`, `layer_past`, made the join a cache).
const KEYS_HANDED_BACK = `import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, width: int, heads: int):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)

    def forward(self, x: torch.Tensor, carry: tuple = None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, self.heads, -1).transpose(1, 2)
        k = k.view(B, T, self.heads, -1).transpose(1, 2)
        v = v.view(B, T, self.heads, -1).transpose(1, 2)
        if carry is not None:
            k = torch.cat([carry[0], k], dim=2)
            v = torch.cat([carry[1], v], dim=2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y), (k, v)
`;

describe('lint: findings that hung on a name rest on what the code does (rename32)', () => {
  describe('ATT004: a scale after the softmax of an unnamed product of two projections', () => {
    it('slices of one fused projection, the weights mixed over the normalised axis: reported at the scale', async () => {
      assert.deepEqual(await findingLines(FUSED_SLICES, 'ATT004'), [19]);
    });
    it('fixed, the scale on the scores before the softmax: silent', async () => {
      const fixed = FUSED_SLICES.replace('w = F.softmax(s, dim=-1) / (self.width ** 0.5)', 'w = F.softmax(s / (self.width // self.heads) ** 0.5, dim=-1)');
      assert.notEqual(fixed, FUSED_SLICES);
      assert.deepEqual(await findingLines(fixed, 'ATT004'), []);
    });
    it('weights not mixed over the normalised axis (summed over the queries instead): silent', async () => {
      const other = FUSED_SLICES.replace('"bhij, bhjd -> bhid", w, c', '"bhij, bhid -> bhjd", w, c');
      assert.notEqual(other, FUSED_SLICES);
      assert.deepEqual(await findingLines(other, 'ATT004'), []);
    });
    it('a router against a learned expert matrix, named as attention (queries, attn_weights): silent', async () => {
      assert.deepEqual(await findingLines(ROUTER_NAMED_AS_ATTENTION, 'ATT004'), []);
    });
  });

  describe('ATT004: CNTK element_select read as where', () => {
    it('scores divided by the query width, then selected against -1e30 and normalised: reported at the division', async () => {
      assert.deepEqual(await findingLines(CNTK_SELECT, 'ATT004'), [10]);
    });
    it('fixed, divided by its square root: silent', async () => {
      const fixed = CNTK_SELECT.replace('t = s / n\n', 't = s / C.sqrt(n)\n');
      assert.notEqual(fixed, CNTK_SELECT);
      assert.deepEqual(await findingLines(fixed, 'ATT004'), []);
    });
    it('the query width named d_model, under a square root: silent (the value, not the name, is the width)', async () => {
      const named = CNTK_SELECT.replace('n = C.Constant', 'd_model = C.Constant').replace('t = s / n\n', 't = s / C.sqrt(d_model)\n');
      assert.notEqual(named, CNTK_SELECT);
      assert.deepEqual(await findingLines(named, 'ATT004'), []);
    });
  });

  describe('ATT002: a masking fill of logits the code shows nothing of, read by a softmax', () => {
    it("an MLP's pair logits filled where a keep mask is True, then softmaxed: reported at the fill", async () => {
      assert.deepEqual(await findingLines(OPAQUE_LOGITS, 'ATT002'), [19]);
    });
    it('fixed, filled where the mask is False: silent', async () => {
      const fixed = OPAQUE_LOGITS.replace('u.masked_fill_(both,', 'u.masked_fill_(~both,');
      assert.notEqual(fixed, OPAQUE_LOGITS);
      assert.deepEqual(await findingLines(fixed, 'ATT002'), []);
    });
    it('the same fill with no softmax reading it (a sigmoid gate): silent', async () => {
      const gate = OPAQUE_LOGITS.replace('p = u.softmax(dim=-1)', 'p = u.sigmoid()');
      assert.notEqual(gate, OPAQUE_LOGITS);
      assert.deepEqual(await findingLines(gate, 'ATT002'), []);
    });
    it('the same logits chosen against the fill with torch.where where the keep mask is False: reported at the condition', async () => {
      const chosen = OPAQUE_LOGITS.replace('u.masked_fill_(both, -torch.finfo(u.dtype).max)', 'u = torch.where(~both, u, -torch.finfo(u.dtype).max)');
      assert.notEqual(chosen, OPAQUE_LOGITS);
      assert.deepEqual(await findingLines(chosen, 'ATT002'), [19]);
    });
    it('torch.where keeping the logits where the keep mask is True: silent', async () => {
      const chosen = OPAQUE_LOGITS.replace('u.masked_fill_(both, -torch.finfo(u.dtype).max)', 'u = torch.where(both, u, -torch.finfo(u.dtype).max)');
      assert.notEqual(chosen, OPAQUE_LOGITS);
      assert.deepEqual(await findingLines(chosen, 'ATT002'), []);
    });
    it('a keep mask named pad_mask (ids != pad_id), chosen with torch.where where True: silent', async () => {
      const chosen = KEEP_MASK_NAMED_PAD.replace(
        'u = u.masked_fill(~pad_mask[:, None, None, :], float("-inf"))',
        'u = torch.where(pad_mask[:, None, None, :], u, float("-inf"))',
      );
      assert.notEqual(chosen, KEEP_MASK_NAMED_PAD);
      assert.deepEqual(await findingLines(chosen, 'ATT002'), []);
    });
    it('a keep mask named pad_mask (ids != pad_id), filled where False: silent', async () => {
      assert.deepEqual(await findingLines(KEEP_MASK_NAMED_PAD, 'ATT002'), []);
    });
    it('the same pad_mask filled where True: reported, from its construction', async () => {
      const buggy = KEEP_MASK_NAMED_PAD.replace('masked_fill(~pad_mask', 'masked_fill(pad_mask');
      assert.notEqual(buggy, KEEP_MASK_NAMED_PAD);
      assert.deepEqual(await findingLines(buggy, 'ATT002'), [22]);
    });
  });

  describe('ATT008: keys extended with a parameter and handed back are a KV cache', () => {
    it('is_causal=True on keys joined with carry[0] and returned as (k, v): reported at the flag', async () => {
      assert.deepEqual(await findingLines(KEYS_HANDED_BACK, 'ATT008'), [22]);
    });
    it('fixed, causal only without a cache (is_causal=carry is None): silent', async () => {
      const fixed = KEYS_HANDED_BACK.replace('is_causal=True)', 'is_causal=carry is None)');
      assert.notEqual(fixed, KEYS_HANDED_BACK);
      assert.deepEqual(await findingLines(fixed, 'ATT008'), []);
    });
    it('the joined keys not handed back (a fixed prefix the caller passes each time): silent', async () => {
      const prefix = KEYS_HANDED_BACK.replace('return self.proj(y), (k, v)', 'return self.proj(y)');
      assert.notEqual(prefix, KEYS_HANDED_BACK);
      assert.deepEqual(await findingLines(prefix, 'ATT008'), []);
    });
    it('handed back in another layout than the one read ((v, k) for carry[0] = keys): silent', async () => {
      const swapped = KEYS_HANDED_BACK.replace('return self.proj(y), (k, v)', 'return self.proj(y), (v, k)');
      assert.notEqual(swapped, KEYS_HANDED_BACK);
      assert.deepEqual(await findingLines(swapped, 'ATT008'), []);
    });
  });
});
