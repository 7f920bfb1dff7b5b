# case: causal-audiolm-flash-kv-cache-top-left
# modelled-on: lucidrains/audiolm-pytorch https://github.com/lucidrains/audiolm-pytorch/commit/59287ff9e339b852b90a5cacbf756a730b2fd6d3
# label: buggy
# class: real-bug
# pattern: a two-file workspace: attention.py concatenates the cached keys/values (torch.cat((ck, k), dim=-2)) and calls Attend from attend.py; Attend's SDPA path builds a bottom-right causal mask only when a padding mask is given and otherwise hands is_causal=self.causal to SDPA; the einsum path aligns the causal mask bottom-right (triu(j - i + 1))
# why: with a KV cache and no padding mask, q has the new tokens and k the whole history, and SDPA's is_causal=True aligns the causal mask top-left (documented), so the new token attends only to the first cached keys; the einsum path and the masked SDPA path of the same class align it bottom-right
# source: https://github.com/lucidrains/audiolm-pytorch https://github.com/lucidrains/audiolm-pytorch/commit/d65fd151075d304bc7b28dfcb736e179b6020fca audiolm_pytorch/attend.py
from collections import namedtuple

import torch
import torch.nn.functional as F
from einops import rearrange, repeat
from torch import einsum, nn

Config = namedtuple('Config', ['enable_flash', 'enable_math', 'enable_mem_efficient'])


def exists(val):
    return val is not None


class Attend(nn.Module):
    def __init__(self, dropout=0., causal=False, flash=False):
        super().__init__()
        self.dropout = dropout
        self.attn_dropout = nn.Dropout(dropout)
        self.causal = causal
        self.flash = flash
        self.cpu_config = Config(True, True, True)
        self.cuda_config = Config(False, True, True)

    def flash_attn(self, q, k, v, mask=None):
        _, heads, q_len, _, k_len, is_cuda = *q.shape, k.shape[-2], q.is_cuda

        k = repeat(k, 'b ... -> b h ...', h=heads)
        v = repeat(v, 'b ... -> b h ...', h=heads)

        causal = self.causal

        if exists(mask):
            mask = rearrange(mask, 'b j -> b 1 1 j')
            mask = mask.expand(-1, heads, q_len, -1)

            if causal:
                causal_mask = torch.ones((q_len, k_len), device=q.device, dtype=torch.bool).triu(k_len - q_len + 1)
                mask = mask & ~causal_mask
                causal = False

        config = self.cuda_config if is_cuda else self.cpu_config

        with torch.backends.cuda.sdp_kernel(**config._asdict()):
            out = F.scaled_dot_product_attention(
                q, k, v,
                attn_mask=mask,
                dropout_p=self.dropout if self.training else 0.,
                is_causal=causal  # expect: ATT008
            )
        return out

    def forward(self, q, k, v, mask=None, attn_bias=None):
        scale = q.shape[-1] ** -0.5

        if self.flash:
            assert not exists(attn_bias), 'attention bias not supported for flash attention'
            return self.flash_attn(q, k, v, mask=mask)

        sim = einsum("b h i d, b j d -> b h i j", q, k) * scale

        if exists(attn_bias):
            sim = sim + attn_bias

        if exists(mask):
            mask = rearrange(mask, 'b j -> b 1 1 j')
            sim = sim.masked_fill(~mask, -torch.finfo(sim.dtype).max)

        if self.causal:
            i, j = sim.shape[-2:]
            causal_mask = torch.ones((i, j), device=sim.device, dtype=torch.bool).triu(j - i + 1)
            sim = sim.masked_fill(causal_mask, -torch.finfo(sim.dtype).max)

        attn = sim.softmax(dim=-1)
        attn = self.attn_dropout(attn)
        return einsum("b h i j, b j d -> b h i d", attn, v)
