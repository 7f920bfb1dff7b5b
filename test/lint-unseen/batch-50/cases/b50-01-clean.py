# case: b50-01-clean
# modelled-on: Abhisingh18/Sutra-1.3B-Model https://github.com/Abhisingh18/Sutra-1.3B-Model/commit/5c16dda54dfc4063e419c10270b2a6979be08409
# label: correct
# class: clean
# pattern: a DeepSeek-style multi-head latent attention of a small MoE language model: queries are split into a content half (nope) and a rotary half (rope); keys and values are re-expanded from a cached low-rank latent, the rotary key part is cached raw and shared by all heads; the softmax scale is 1/sqrt(nope_dim + rope_dim) and is handed to scaled_dot_product_attention as scale=; is_causal is on when there is no cache or when more than one query arrives, off for single-token decoding
# why: correct: scores are dot products over the concatenation [nope | rope], whose width is nope_dim + rope_dim, so 1/sqrt(nope_dim + rope_dim) is the 1/sqrt(d_k) of these heads (the value width v_dim is not part of the product); SDPA's default would use q.size(-1), which is the same number, and the explicit scale= just states it. Generation prefills the whole prompt in one call with an empty cache (queries = keys, so SDPA's top-left causal mask is the ordinary one) and then feeds one token per step with is_causal=False, where the single query may see every cached key; the rotary key part is stored before rotation and rotated from position 0 over the whole cache each step, the query at its offset, so positions agree
# looks-like: ATT004, ATT008
# source: https://github.com/Abhisingh18/Sutra-1.3B-Model https://github.com/Abhisingh18/Sutra-1.3B-Model/commit/5c16dda54dfc4063e419c10270b2a6979be08409 src/model/mla.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from .norm import RMSNorm
from .rope import rotate_half_pairs


class LatentAttention(nn.Module):
    """Caches a narrow latent per token instead of full per-head keys and values."""

    def __init__(self, cfg):
        super().__init__()
        self.heads = cfg.n_heads
        self.nope_dim = cfg.qk_nope_head_dim
        self.rope_dim = cfg.qk_rope_head_dim
        self.v_dim = cfg.v_head_dim
        self.rank = cfg.kv_lora_rank
        self.p_drop = cfg.dropout
        qk_dim = self.nope_dim + self.rope_dim

        self.to_q = nn.Linear(cfg.d_model, self.heads * qk_dim, bias=False)
        # one projection gives the latent and the (shared) rotary key
        self.to_latent = nn.Linear(cfg.d_model, self.rank + self.rope_dim, bias=False)
        self.latent_norm = RMSNorm(self.rank, cfg.norm_eps)
        self.from_latent = nn.Linear(self.rank, self.heads * (self.nope_dim + self.v_dim), bias=False)
        self.to_out = nn.Linear(self.heads * self.v_dim, cfg.d_model, bias=False)

        # the product runs over both halves, so the width is nope + rope
        self.softmax_scale = qk_dim ** -0.5

    def forward(self, x, cos, sin, cache=None, offset: int = 0):
        bsz, n_new, _ = x.shape
        q = self.to_q(x).view(bsz, n_new, self.heads, -1).transpose(1, 2)
        q_content, q_pos = q.split([self.nope_dim, self.rope_dim], dim=-1)

        latent, k_pos = self.to_latent(x).split([self.rank, self.rope_dim], dim=-1)
        latent = self.latent_norm(latent)
        k_pos = k_pos.unsqueeze(1)  # one rotary key for every head: (B, 1, T, rope)

        new_cache = None
        if cache is not None:
            old_latent, old_k_pos = cache
            if old_latent is not None:
                latent = torch.cat([old_latent, latent], dim=1)
                k_pos = torch.cat([old_k_pos, k_pos], dim=2)
            new_cache = (latent, k_pos)
        total = latent.shape[1]

        kv = self.from_latent(latent).view(bsz, total, self.heads, self.nope_dim + self.v_dim)
        k_content, v = kv.transpose(1, 2).split([self.nope_dim, self.v_dim], dim=-1)

        # new queries sit at offset .. offset + n_new; the cached keys start at 0
        q_pos = rotate_half_pairs(q_pos, cos, sin, start=offset)
        k_pos = rotate_half_pairs(k_pos, cos, sin, start=0)
        k_pos = k_pos.expand(bsz, self.heads, total, self.rope_dim)

        q_full = torch.cat([q_content, q_pos], dim=-1)
        k_full = torch.cat([k_content, k_pos], dim=-1)

        causal = cache is None or n_new > 1
        ctx = F.scaled_dot_product_attention(
            q_full,
            k_full,
            v,
            dropout_p=self.p_drop if self.training else 0.0,
            is_causal=causal,
            scale=self.softmax_scale,
        )
        ctx = ctx.transpose(1, 2).reshape(bsz, n_new, self.heads * self.v_dim)
        return self.to_out(ctx), new_cache
