# case: causal-block-recurrent-flash-xl-memories
# modelled-on: lucidrains/block-recurrent-transformer-pytorch https://github.com/lucidrains/block-recurrent-transformer-pytorch/commit/49ccd7123058680069d84883cf67b15624d8fd33
# label: buggy
# pattern: a block-recurrent attention layer prepends the previous block's keys/values (XL memories) to the current block's keys, then runs PyTorch 2.0's fused attention with is_causal=self.causal; the einsum path beside it builds its causal mask as triu(j - i + 1)
# why: the keys are longer than the queries, and SDPA's is_causal is top-left aligned: query i sees keys 0..i (mostly memories) instead of every memory plus the current block up to i, as the commit that replaced it with a manual triu(j - i + 1) mask explains
import torch
import torch.nn.functional as F
from einops import rearrange
from torch import einsum, nn


def exists(val):
    return val is not None


class Attend(nn.Module):
    def __init__(self, causal=False, use_flash_attn=False):
        super().__init__()
        self.causal = causal
        self.use_flash_attn = use_flash_attn

    def flash_attn(self, q, k, v, mask=None):
        if exists(mask):
            mask = rearrange(mask, "b j -> b 1 1 j")
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=self.causal if not exists(mask) else False)  # expect: ATT008

    def forward(self, q, k, v, mask=None):
        if self.use_flash_attn:
            return self.flash_attn(q, k, v, mask=mask)
        scale = q.shape[-1] ** -0.5
        sim = einsum("b h i d, b h j d -> b h i j", q, k) * scale
        max_neg_value = -torch.finfo(sim.dtype).max
        if exists(mask):
            sim = sim.masked_fill(~rearrange(mask, "b j -> b 1 1 j"), max_neg_value)
        if self.causal:
            i, j = sim.shape[-2:]
            causal_mask = torch.ones((i, j), device=q.device, dtype=torch.bool).triu(j - i + 1)
            sim = sim.masked_fill(causal_mask, max_neg_value)
        attn = sim.softmax(dim=-1)
        return einsum("b h i j, b h j d -> b h i d", attn, v)


class BlockAttention(nn.Module):
    def __init__(self, dim, heads=8, dim_head=64, use_flash_attn=True):
        super().__init__()
        inner = heads * dim_head
        self.heads = heads
        self.to_q = nn.Linear(dim, inner, bias=False)
        self.to_kv = nn.Linear(dim, inner * 2, bias=False)
        self.to_out = nn.Linear(inner, dim, bias=False)
        self.attend = Attend(causal=True, use_flash_attn=use_flash_attn)

    def forward(self, x, xl_memories=None):
        q = self.to_q(x)
        k, v = self.to_kv(x).chunk(2, dim=-1)
        q, k, v = map(lambda t: rearrange(t, "b n (h d) -> b h n d", h=self.heads), (q, k, v))  # (b, h, n, d)
        next_memories = torch.stack((k, v))
        if exists(xl_memories):
            past_k, past_v = xl_memories.unbind(dim=0)
            k = torch.cat((past_k, k), dim=-2)  # (b, h, m + n, d)
            v = torch.cat((past_v, v), dim=-2)
        out = self.attend(q, k, v)
        out = rearrange(out, "b h n d -> b n (h d)")
        return self.to_out(out), next_memories.detach()
