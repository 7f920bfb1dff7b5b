# case: b24-05-clean
# modelled-on: constantinmay/minillm-from-scratch https://github.com/constantinmay/minillm-from-scratch/commit/4745925603cafce7c08343213a4f3096c25aff93
# label: correct
# class: clean
# pattern: a small RoPE decoder whose head width is a property of a config dataclass in another module; attention is F.scaled_dot_product_attention(q, k, v, is_causal=True, dropout_p=...) on (B, heads, T, head_dim) tensors after rotary embedding, and generation in a third module re-runs the whole (cropped) context every step, with no key/value cache
# why: correct: without a cache the queries and keys always have the same length T, so SDPA's top-left causal mask is the right one, and SDPA applies its default 1/sqrt(head_dim) scale; is_causal=True is set for training and generation alike because generation recomputes the full window each step
# looks-like: ATT003, ATT008
# source: https://github.com/constantinmay/minillm-from-scratch https://github.com/constantinmay/minillm-from-scratch/commit/4745925603cafce7c08343213a4f3096c25aff93 model/attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from minillm.config import MiniConfig


def rope_table(head_dim: int, max_len: int, theta: float = 10000.0) -> torch.Tensor:
    inv = 1.0 / (theta ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))
    ang = torch.outer(torch.arange(max_len, dtype=torch.float32), inv)
    return torch.cat([torch.cos(ang), torch.sin(ang)], dim=-1)  # (max_len, head_dim)


def rotate(x: torch.Tensor, table: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    cos = table[:, :half][None, None]
    sin = table[:, half:][None, None]
    a, b = x[..., :half], x[..., half:]
    return torch.cat([a * cos - b * sin, a * sin + b * cos], dim=-1)


class CausalSelfAttention(nn.Module):
    def __init__(self, cfg: MiniConfig):
        super().__init__()
        self.cfg = cfg
        self.n_head = cfg.n_head
        self.head_dim = cfg.head_dim
        self.q_proj = nn.Linear(cfg.n_embd, cfg.n_embd, bias=cfg.bias)
        self.k_proj = nn.Linear(cfg.n_embd, cfg.n_embd, bias=cfg.bias)
        self.v_proj = nn.Linear(cfg.n_embd, cfg.n_embd, bias=cfg.bias)
        self.o_proj = nn.Linear(cfg.n_embd, cfg.n_embd, bias=cfg.bias)
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x: torch.Tensor, table: torch.Tensor) -> torch.Tensor:
        B, T, C = x.shape
        q = self.q_proj(x).view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        q = rotate(q, table[:T])
        k = rotate(k, table[:T])
        y = F.scaled_dot_product_attention(
            q,
            k,
            v,
            is_causal=True,
            dropout_p=self.cfg.dropout if self.training else 0.0,
        )
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.drop(self.o_proj(y))
