# case: t24q-03-clean
# modelled-on: brookwillow/tiny-llm-scratch https://github.com/brookwillow/tiny-llm-scratch/commit/2796eb40823a61a97d061f470ec67f5f65e7a6a5
# label: correct
# class: clean
# pattern: a RoPE decoder block written with einops and einsum: heads split by rearrange("... s (h d) -> ... h s d"), scores torch.einsum("...nk, ...mk -> ...nm", q, k) / math.sqrt(self.d_k), a bool causal mask torch.tril(ones) filled where mask == False with -inf, softmax(dim=-1), and the values combined with einsum("...nm, ...mk -> ...nk")
# why: correct: the einsum contracts the last (feature) axis of q and k, which is q @ k^T with no explicit transpose; d_k = hidden_size // num_head is the per-head width; tril is True on the allowed (past and current) keys, so filling mask == False blocks the future; the softmax is over m, the key axis of "...nm", and the value einsum sums over the same m
# looks-like: ATT001, ATT002, ATT005
# source: https://github.com/brookwillow/tiny-llm-scratch https://github.com/brookwillow/tiny-llm-scratch/commit/2796eb40823a61a97d061f470ec67f5f65e7a6a5 model/model.py
import math

import torch
import torch.nn as nn
from einops import rearrange


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.w = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        xf = x.float()
        rms = torch.sqrt(xf.pow(2).mean(dim=-1, keepdim=True) + self.eps)
        return (xf / rms * self.w).to(x.dtype)


class Rope(nn.Module):
    def __init__(self, d_k: int, max_seq_len: int, theta: float = 10000.0):
        super().__init__()
        inv = theta ** (-torch.arange(0, d_k, 2).float() / d_k)
        ang = torch.outer(torch.arange(max_seq_len).float(), inv)
        self.register_buffer("cos", ang.cos(), persistent=False)
        self.register_buffer("sin", ang.sin(), persistent=False)

    def forward(self, x, positions):
        cos, sin = self.cos[positions][:, None], self.sin[positions][:, None]
        x1, x2 = x[..., 0::2], x[..., 1::2]
        out = torch.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)
        return out.flatten(-2)


class Block(nn.Module):
    def __init__(self, hidden_size: int, num_head: int, hidden_ff: int, max_seq_len: int = 512):
        super().__init__()
        self.num_head = num_head
        self.d_k = hidden_size // num_head
        self.norm1 = RMSNorm(hidden_size)
        self.norm2 = RMSNorm(hidden_size)
        self.rope = Rope(self.d_k, max_seq_len)
        self.q_proj = nn.Linear(hidden_size, hidden_size, bias=False)
        self.k_proj = nn.Linear(hidden_size, hidden_size, bias=False)
        self.v_proj = nn.Linear(hidden_size, hidden_size, bias=False)
        self.out_proj = nn.Linear(hidden_size, hidden_size, bias=False)
        self.w1 = nn.Linear(hidden_size, hidden_ff, bias=False)
        self.w3 = nn.Linear(hidden_size, hidden_ff, bias=False)
        self.w2 = nn.Linear(hidden_ff, hidden_size, bias=False)

    def forward(self, x):
        batch, seq_len, _ = x.shape
        residual = x
        h = self.norm1(x)
        q = rearrange(self.q_proj(h), "... s (h d) -> ... h s d", h=self.num_head)
        k = rearrange(self.k_proj(h), "... s (h d) -> ... h s d", h=self.num_head)
        v = rearrange(self.v_proj(h), "... s (h d) -> ... h s d", h=self.num_head)

        pos = torch.arange(seq_len, device=x.device).expand(batch, seq_len)
        q = self.rope(q, pos)
        k = self.rope(k, pos)

        # scaled by sqrt(d_k)
        scores = torch.einsum("...nk, ...mk -> ...nm", q, k) / math.sqrt(self.d_k)
        causal = torch.tril(torch.ones(seq_len, seq_len, device=x.device, dtype=torch.bool))
        scores = scores.masked_fill(causal == False, float("-inf"))  # noqa: E712
        probs = torch.softmax(scores, dim=-1)
        attn = torch.einsum("...nm, ...mk -> ...nk", probs, v)
        x = residual + self.out_proj(rearrange(attn, "... h s d -> ... s (h d)"))

        ff = self.w2(torch.nn.functional.silu(self.w1(self.norm2(x))) * self.w3(self.norm2(x)))
        return x + ff
