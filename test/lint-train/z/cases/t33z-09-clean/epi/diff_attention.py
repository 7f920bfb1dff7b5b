# case: t33z-09-clean
# modelled-on: pinellolab/EPInformer https://github.com/pinellolab/EPInformer/commit/99c541257265f10e65cf530348eb0203d7c9ef10
# label: correct
# class: clean
# pattern: a gene-expression model (a promoter token and up to n candidate enhancer tokens per gene) with differential attention: q and k have 2 * num_heads heads of width head_dim = embed_dim // num_heads // 2, q *= head_dim ** -0.5, scores = matmul(q, k.transpose(-1, -2)), nan_to_num, then an additive attn_mask and key_padding_mask are added with +=, softmax over dim=-1 in float32 cast back with type_as, the weights viewed as (batch, heads, 2, T, S) and combined as w[:, :, 0] - lambda_full * w[:, :, 1] (lambda from exponentiated learned vectors), the product with the values followed by an RMSNorm and a (1 - lambda_init) factor; the model (another module) builds the key padding mask from the enhancer sequences (~(seq.sum(-1).sum(-1) > 0), True = empty enhancer slot), prepends a False column for the promoter, reshapes it to (batch, 1, 1, S) and turns it into an additive mask with torch.where(mask == 1, -inf, mask).float()
# why: correct: this is differential attention as published (two softmax maps over the keys, the second subtracted with a learned lambda), not a mask applied after the softmax; the mask handed over is additive (-inf on empty enhancer slots, 0 elsewhere), added to the scores before the softmax, and the promoter key is never masked, so no row is all -inf; the scale is the width of the split q/k heads; the softmax runs in float32
# looks-like: ATT002, ATT004, ATT006, ATT007
# source: https://github.com/pinellolab/EPInformer https://github.com/pinellolab/EPInformer/commit/99c541257265f10e65cf530348eb0203d7c9ef10 EPInformer/multihead_diffattn.py
import math

import torch
import torch.nn.functional as F
from torch import nn

from epi.rms_norm import RMSNorm


def repeat_kv(x: torch.Tensor, n_rep: int) -> torch.Tensor:
    bs, n_kv_heads, slen, head_dim = x.shape
    if n_rep == 1:
        return x
    return x[:, :, None, :, :].expand(bs, n_kv_heads, n_rep, slen, head_dim).reshape(bs, n_kv_heads * n_rep, slen, head_dim)


def lambda_init_fn(depth):
    return 0.8 - 0.6 * math.exp(-0.3 * depth)


class DiffAttention(nn.Module):
    def __init__(self, embed_dim, num_heads, depth=12):
        super().__init__()
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.num_kv_heads = num_heads
        self.n_rep = self.num_heads // self.num_kv_heads
        self.head_dim = embed_dim // num_heads // 2
        self.scaling = self.head_dim ** -0.5

        self.q_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.k_proj = nn.Linear(embed_dim, embed_dim // self.n_rep, bias=False)
        self.v_proj = nn.Linear(embed_dim, embed_dim // self.n_rep, bias=False)
        self.out_proj = nn.Linear(embed_dim, embed_dim, bias=False)

        self.lambda_init = lambda_init_fn(depth)
        self.lambda_q1 = nn.Parameter(torch.zeros(self.head_dim).normal_(mean=0, std=0.1))
        self.lambda_k1 = nn.Parameter(torch.zeros(self.head_dim).normal_(mean=0, std=0.1))
        self.lambda_q2 = nn.Parameter(torch.zeros(self.head_dim).normal_(mean=0, std=0.1))
        self.lambda_k2 = nn.Parameter(torch.zeros(self.head_dim).normal_(mean=0, std=0.1))
        self.subln = RMSNorm(2 * self.head_dim, eps=1e-5)

    def forward(self, x, attn_mask=None, key_padding_mask=None):
        bsz, tgt_len, _ = x.size()
        src_len = tgt_len

        q = self.q_proj(x).view(bsz, tgt_len, 2 * self.num_heads, self.head_dim)
        k = self.k_proj(x).view(bsz, src_len, 2 * self.num_kv_heads, self.head_dim)
        v = self.v_proj(x).view(bsz, src_len, self.num_kv_heads, 2 * self.head_dim)

        q = q.transpose(1, 2)
        k = repeat_kv(k.transpose(1, 2), self.n_rep)
        v = repeat_kv(v.transpose(1, 2), self.n_rep)
        q *= self.scaling
        weights = torch.matmul(q, k.transpose(-1, -2))
        weights = torch.nan_to_num(weights)
        if attn_mask is not None:
            weights += attn_mask
        if key_padding_mask is not None:
            weights += key_padding_mask
        weights = F.softmax(weights, dim=-1, dtype=torch.float32).type_as(weights)

        lambda_1 = torch.exp(torch.sum(self.lambda_q1 * self.lambda_k1, dim=-1).float()).type_as(q)
        lambda_2 = torch.exp(torch.sum(self.lambda_q2 * self.lambda_k2, dim=-1).float()).type_as(q)
        lambda_full = lambda_1 - lambda_2 + self.lambda_init
        weights = weights.view(bsz, self.num_heads, 2, tgt_len, src_len)
        weights = weights[:, :, 0] - lambda_full * weights[:, :, 1]

        out = torch.matmul(weights, v)
        out = self.subln(out) * (1 - self.lambda_init)
        out = out.transpose(1, 2).reshape(bsz, tgt_len, self.num_heads * 2 * self.head_dim)
        return self.out_proj(out), weights
