# case: scale-memeff-attention-double-scaled-queries
# modelled-on: lucidrains/memory-efficient-attention-pytorch https://github.com/lucidrains/memory-efficient-attention-pytorch/commit/2b93d552c9a64bf406cd414d58bc8abb47d76b3f
# label: buggy
# class: real-bug
# pattern: attention module that dispatches to one of two module-level attention functions (plain or chunked); each function scales the queries by q.shape[-1] ** -0.5 itself, and the module also multiplies the projected queries by dim_head ** -0.5 before splitting the heads
# why: the queries are scaled twice, so the logits are divided by d_head instead of sqrt(d_head) and the attention is too flat; commit 2b93d55 ("fix bug with scale") removed the module's own scaling and left it to the functions
# source: https://github.com/lucidrains/memory-efficient-attention-pytorch https://github.com/lucidrains/memory-efficient-attention-pytorch/commit/2b93d552c9a64bf406cd414d58bc8abb47d76b3f memory_efficient_attention_pytorch/memory_efficient_attention.py
import torch
from einops import rearrange
from torch import einsum, nn


def exists(val):
    return val is not None


def attention(q, k, v, mask=None, causal=False, **kwargs):
    # q, k, v: (b, h, n, d); mask: (b, j) bool, True = keep
    scale = q.shape[-1] ** -0.5
    q = q * scale
    sim = einsum("b h i d, b h j d -> b h i j", q, k)
    sim = sim - sim.amax(dim=-1, keepdim=True).detach()
    mask_value = -torch.finfo(sim.dtype).max
    if exists(mask):
        sim = sim.masked_fill(~rearrange(mask, "b j -> b 1 1 j"), mask_value)
    if causal:
        i, j = sim.shape[-2:]
        sim = sim.masked_fill(torch.ones(i, j, device=q.device, dtype=torch.bool).triu(j - i + 1), mask_value)
    attn = sim.softmax(dim=-1)
    return einsum("b h i j, b h j d -> b h i d", attn, v)


def chunked_attention(q, k, v, mask=None, causal=False, k_bucket_size=1024, eps=1e-8, **kwargs):
    # the same attention, summed over key chunks with exp-normalisation by the running maximum
    scale = q.shape[-1] ** -0.5
    q = q * scale
    mask_chunks = mask.split(k_bucket_size, dim=-1) if exists(mask) else (None,) * len(k.split(k_bucket_size, dim=-2))
    weights, values, maxes = [], [], []
    for k_c, v_c, m_c in zip(k.split(k_bucket_size, dim=-2), v.split(k_bucket_size, dim=-2), mask_chunks):
        w = einsum("b h i d, b h j d -> b h i j", q, k_c)
        w_max = w.amax(dim=-1, keepdim=True).detach()
        w = w - w_max
        if exists(m_c):
            w = w.masked_fill(~rearrange(m_c, "b j -> b 1 1 j"), -torch.finfo(w.dtype).max)
        e = w.exp()
        weights.append(e.sum(dim=-1))
        values.append(einsum("b h i j, b h j d -> b h i d", e, v_c))
        maxes.append(w_max.squeeze(-1))
    maxes = torch.stack(maxes, dim=-1)
    renorm = (maxes - maxes.amax(dim=-1, keepdim=True)).exp()
    total = (torch.stack(weights, dim=-1) * renorm).sum(dim=-1)
    out = (torch.stack(values, dim=-1) * renorm.unsqueeze(-2)).sum(dim=-1)
    return out / (total.unsqueeze(-1) + eps)


class Attention(nn.Module):
    def __init__(self, *, dim, heads=8, dim_head=64, causal=False, memory_efficient=False):
        super().__init__()
        self.heads = heads
        self.causal = causal
        self.scale = dim_head ** -0.5
        inner_dim = heads * dim_head
        self.to_q = nn.Linear(dim, inner_dim, bias=False)
        self.to_kv = nn.Linear(dim, inner_dim * 2, bias=False)
        self.to_out = nn.Linear(inner_dim, dim)
        self.memory_efficient = memory_efficient

    def forward(self, x, context=None, mask=None):
        h = self.heads
        context = x if context is None else context
        q = self.to_q(x)
        k, v = self.to_kv(context).chunk(2, dim=-1)
        q = q * self.scale  # expect: ATT004
        q, k, v = (rearrange(t, "b n (h d) -> b h n d", h=h) for t in (q, k, v))
        attn_fn = chunked_attention if self.memory_efficient else attention
        out = attn_fn(q, k, v, mask=mask, causal=self.causal)
        return self.to_out(rearrange(out, "b h n d -> b n (h d)"))
