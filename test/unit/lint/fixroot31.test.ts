// Session 31 (the 456-repository rescan): a square root written out over a name the evaluator cannot follow
// (`math.sqrt(dim)`, `emb_dim ** 0.5`) is read as a 1/sqrt of that name, whose meaning only the code around it gives
// (the projection width the name was handed, `tf.layers.dense(x, num_units)` then `tf.constant(num_units ** 0.5)`).
// Two false ATT004 findings came from reading it by the name: a helper's `dim` parameter, which every caller binds to
// one head's width, matched by its text with the class's `dim` split into heads; and `emb_dim = V.size(-2) * V.size(-1)`
// of per-head values read as the model width.
import { strict as assert } from 'node:assert';
import { findingLines } from './helpers';

const HELPER_DIM = `import math

import torch
from einops import rearrange
from torch import nn


def attend(q, k, v, dim=None):
    attn = torch.matmul(q, k.transpose(-1, -2))
    attn = attn / math.sqrt(dim)
    return torch.softmax(attn, dim=-1) @ v


class MultiHeadAttention(nn.Module):
    def __init__(self, dim, n_heads, inner_dim=None):
        super().__init__()
        self.n_heads = n_heads
        self.inner_dim = inner_dim
        if not self.inner_dim:
            self.inner_dim = dim // n_heads
        self.qkv_proj = nn.Linear(dim, self.inner_dim * self.n_heads * 3, bias=False)

    def forward(self, x):
        qkv = self.qkv_proj(x).chunk(3, dim=-1)
        q, k, v = map(lambda t: rearrange(t, 'b n (h d) -> b h n d', h=self.n_heads, d=self.inner_dim), qkv)
        return attend(q, k, v, dim=self.inner_dim)
`;

const PER_HEAD_PRODUCT = `import torch
from torch import nn


class ChannelAttention(nn.Module):
    def __init__(self, channels, heads):
        super().__init__()
        self.heads = heads
        self.to_q = nn.Conv2d(channels, channels, 1)
        self.to_k = nn.Conv2d(channels, channels, 1)
        self.to_v = nn.Conv2d(channels, channels, 1)

    def forward(self, x):
        B, C, N, F, T = x.shape
        h = x.permute(0, 4, 1, 3, 2)  # [B, T, C, F, N]
        Q = self.to_q(h).reshape(B, T, C, F, -1, self.heads).permute(0, 5, 1, 2, 3, 4)  # [B, head, T, C, F, D]
        K = self.to_k(h).reshape(B, T, C, F, -1, self.heads).permute(0, 5, 1, 2, 3, 4)  # [B, head, T, C, F, D]
        V = self.to_v(h).reshape(B, T, C, F, -1, self.heads).permute(0, 5, 1, 2, 3, 4)  # [B, head, T, C, F, D']
        emb_dim = V.size(-2) * V.size(-1)
        attn = torch.einsum("bhtcfn,bhtefn->bhce", Q / T, K / emb_dim**0.5)
        attn = nn.functional.softmax(attn, dim=-1)  # [B, head, C, C]
        return torch.einsum("bhce,bhtefn->bhtcfn", attn, V)
`;

describe('lint: a root written out over a name is not read as the model width by the name (ATT004)', () => {
  it("a helper's dim parameter, bound by every caller to one head's width: silent", async () => {
    assert.deepEqual(await findingLines(HELPER_DIM, 'ATT004'), []);
  });
  it('the same helper called with the whole width (dim=x.shape[-1]) on scores split into heads: reported at the scale', async () => {
    assert.deepEqual(await findingLines(HELPER_DIM.replace('dim=self.inner_dim)', 'dim=x.shape[-1])'), 'ATT004'), [10]);
  });
  it('a product of two per-head axes under the root (emb_dim of per-head values): silent', async () => {
    assert.deepEqual(await findingLines(PER_HEAD_PRODUCT, 'ATT004'), []);
  });
});
