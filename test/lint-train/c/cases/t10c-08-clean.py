# case: t10c-08-clean
# modelled-on: MalayMDas/miniLLM https://github.com/MalayMDas/miniLLM/commit/a4c3ac4
# label: correct
# class: clean
# pattern: grouped-query attention with RoPE whose key/value heads are repeated with repeat_interleave and handed to SDPA with is_causal=True and no cache
# why: there is no KV cache anywhere in the model (generation re-runs the cropped context), so queries and keys always have the same length and the top-left causal mask of is_causal=True is the right one; SDPA applies its own 1/sqrt(head_dim)
# looks-like: ATT003, ATT008
# source: https://github.com/MalayMDas/miniLLM https://github.com/MalayMDas/miniLLM/commit/a4c3ac4 src/llmscratch/model/decoder.py
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class ModelConfig:
    dim: int = 512
    n_heads: int = 8
    n_kv_heads: int = 2
    max_seq: int = 1024
    rope_theta: float = 10000.0
    dropout: float = 0.0

    @property
    def head_dim(self) -> int:
        return self.dim // self.n_heads


def rope_tables(head_dim: int, max_seq: int, theta: float):
    inv_freq = 1.0 / (theta ** (torch.arange(0, head_dim, 2).float() / head_dim))
    freqs = torch.outer(torch.arange(max_seq).float(), inv_freq)
    emb = torch.cat([freqs, freqs], dim=-1)
    return emb.cos(), emb.sin()


def apply_rope(x, cos, sin):
    d = x.shape[-1]
    rotated = torch.cat([-x[..., d // 2 :], x[..., : d // 2]], dim=-1)
    return x * cos[None, None] + rotated * sin[None, None]


class Attention(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.n_heads = cfg.n_heads
        self.n_kv_heads = cfg.n_kv_heads
        self.head_dim = cfg.head_dim
        self.rep = cfg.n_heads // cfg.n_kv_heads
        self.wq = nn.Linear(cfg.dim, cfg.n_heads * cfg.head_dim, bias=False)
        self.wk = nn.Linear(cfg.dim, cfg.n_kv_heads * cfg.head_dim, bias=False)
        self.wv = nn.Linear(cfg.dim, cfg.n_kv_heads * cfg.head_dim, bias=False)
        self.wo = nn.Linear(cfg.n_heads * cfg.head_dim, cfg.dim, bias=False)
        self.dropout = cfg.dropout

    def forward(self, x, cos, sin):
        B, T, _ = x.shape
        q = self.wq(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.wk(x).view(B, T, self.n_kv_heads, self.head_dim).transpose(1, 2)
        v = self.wv(x).view(B, T, self.n_kv_heads, self.head_dim).transpose(1, 2)
        q = apply_rope(q, cos[:T], sin[:T])
        k = apply_rope(k, cos[:T], sin[:T])
        k = k.repeat_interleave(self.rep, dim=1)
        v = v.repeat_interleave(self.rep, dim=1)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True, dropout_p=self.dropout if self.training else 0.0)
        return self.wo(out.transpose(1, 2).contiguous().view(B, T, -1))


@torch.no_grad()
def generate(model, idx, max_new_tokens, max_seq):
    for _ in range(max_new_tokens):
        logits = model(idx[:, -max_seq:])  # the whole cropped context every step, no cache
        idx = torch.cat([idx, logits[:, -1].argmax(-1, keepdim=True)], dim=1)
    return idx
