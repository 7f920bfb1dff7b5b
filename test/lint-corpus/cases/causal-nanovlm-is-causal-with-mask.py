# case: causal-nanovlm-is-causal-with-mask
# modelled-on: huggingface/nanoVLM https://github.com/huggingface/nanoVLM/issues/80
# label: buggy
# pattern: the language model's grouped-query attention builds an additive padding mask from the tokenizer mask and passes it to SDPA together with is_causal=True
# why: SDPA documents an error when both attn_mask and is_causal are set (several backends raise "Explicit attn_mask should not be set when is_causal=True", others silently ignore one of them); the causal part must be merged into the mask instead
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class LanguageModelGroupedQueryAttention(nn.Module):
    def __init__(self, n_embd: int, n_heads: int, n_kv_heads: int, dropout: float = 0.0):
        super().__init__()
        self.n_heads = n_heads
        self.n_kv_heads = n_kv_heads
        self.head_dim = n_embd // n_heads
        self.n_kv_groups = n_heads // n_kv_heads
        self.q_proj = nn.Linear(n_embd, n_heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(n_embd, n_kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(n_embd, n_kv_heads * self.head_dim, bias=False)
        self.out_proj = nn.Linear(n_heads * self.head_dim, n_embd, bias=False)
        self.dropout = dropout

    def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, attention_mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        B, T, C = x.size()
        q = self.q_proj(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)  # (B, H, T, hd)
        k = self.k_proj(x).view(B, T, self.n_kv_heads, self.head_dim).transpose(1, 2)  # (B, H_kv, T, hd)
        v = self.v_proj(x).view(B, T, self.n_kv_heads, self.head_dim).transpose(1, 2)
        q, k = apply_rotary_pos_embd(q, k, cos, sin)
        k = k.repeat_interleave(self.n_kv_groups, dim=1)
        v = v.repeat_interleave(self.n_kv_groups, dim=1)

        if attention_mask is not None:
            # (B, T) 1 = token -> (B, 1, 1, T) additive
            attention_mask = (1.0 - attention_mask[:, None, None, :].to(q.dtype)) * torch.finfo(q.dtype).min

        y = F.scaled_dot_product_attention(
            q, k, v,
            attn_mask=attention_mask,
            dropout_p=self.dropout if self.training else 0.0,
            is_causal=True,  # expect: ATT008
        )
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.out_proj(y)


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_embd(q, k, cos, sin):
    cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
    return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
