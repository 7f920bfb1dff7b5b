# case: t8a-03-clean
# modelled-on: wenzhaoabc/minillm https://github.com/wenzhaoabc/minillm/commit/ed68df171360e6a490907d4abae423d20b95e3b8
# label: correct
# class: clean
# pattern: a MiniMind-style GQA decoder's eager attention path with a KV cache concatenated in front of the new keys: the causal -inf triangle is added only to the last seq_len key columns (scores[..., -seq_len:]), and the tokenizer's keep mask (1 = token, 0 = padding), passed by a chat server in another module for the whole cached length, is made additive with (1.0 - m) * -1e9; the softmax runs in float32
# why: correct: slicing the last seq_len key columns aligns the causal triangle bottom-right, so query i of the new block sees every cached key and new keys up to itself; (1 - keep) is 1 at padding, so padding keys get -1e9 and tokens 0; the model trains in bfloat16, whose range holds -1e9, and the softmax is taken in float32
# looks-like: ATT002, ATT006, ATT007, ATT008
# source: https://github.com/wenzhaoabc/minillm https://github.com/wenzhaoabc/minillm/commit/ed68df171360e6a490907d4abae423d20b95e3b8 minillm/model/model_base.py
import math
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


def repeat_kv(x: torch.Tensor, n_rep: int) -> torch.Tensor:
    """(B, T, n_kv, hd) -> (B, T, n_kv * n_rep, hd)"""
    if n_rep == 1:
        return x
    b, t, h, d = x.shape
    return x[:, :, :, None, :].expand(b, t, h, n_rep, d).reshape(b, t, h * n_rep, d)


def rotate_half(x):
    a, b = x.chunk(2, dim=-1)
    return torch.cat((-b, a), dim=-1)


class EagerAttention(nn.Module):
    def __init__(self, hidden: int, n_heads: int, n_kv_heads: int, dropout: float = 0.0):
        super().__init__()
        self.n_heads, self.n_kv = n_heads, n_kv_heads
        self.n_rep = n_heads // n_kv_heads
        self.head_dim = hidden // n_heads
        self.q_proj = nn.Linear(hidden, n_heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(hidden, n_kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(hidden, n_kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(n_heads * self.head_dim, hidden, bias=False)
        self.attn_dropout = nn.Dropout(dropout)

    def forward(
        self,
        x: torch.Tensor,
        cos_sin: Tuple[torch.Tensor, torch.Tensor],
        past_kv: Optional[Tuple[torch.Tensor, torch.Tensor]] = None,
        use_cache: bool = False,
        attention_mask: Optional[torch.Tensor] = None,
    ):
        bsz, seq_len, _ = x.shape
        q = self.q_proj(x).view(bsz, seq_len, self.n_heads, self.head_dim)
        k = self.k_proj(x).view(bsz, seq_len, self.n_kv, self.head_dim)
        v = self.v_proj(x).view(bsz, seq_len, self.n_kv, self.head_dim)
        cos, sin = cos_sin
        q = q * cos[:, None] + rotate_half(q) * sin[:, None]
        k = k * cos[:, None] + rotate_half(k) * sin[:, None]

        if past_kv is not None:
            k = torch.cat([past_kv[0], k], dim=1)
            v = torch.cat([past_kv[1], v], dim=1)
        present = (k, v) if use_cache else None

        q = q.transpose(1, 2)
        k = repeat_kv(k, self.n_rep).transpose(1, 2)
        v = repeat_kv(v, self.n_rep).transpose(1, 2)

        scores = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)  # (B, H, T_new, T_past + T_new)
        scores[:, :, :, -seq_len:] += torch.triu(
            torch.full((seq_len, seq_len), float("-inf"), device=scores.device), diagonal=1
        )
        if attention_mask is not None:
            ext = attention_mask.unsqueeze(1).unsqueeze(2)  # (B, 1, 1, T_past + T_new), 1 = token
            ext = (1.0 - ext) * -1e9
            scores = scores + ext

        probs = F.softmax(scores.float(), dim=-1).type_as(q)
        out = self.attn_dropout(probs) @ v
        out = out.transpose(1, 2).reshape(bsz, seq_len, -1)
        return self.o_proj(out), present
