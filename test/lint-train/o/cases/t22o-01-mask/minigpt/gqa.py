import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class GroupedQueryAttention(nn.Module):
    """Grouped-query attention: heads share key/value projections in groups."""

    def __init__(self, d_model: int, num_heads: int, num_key_value_heads: int | None = None, dropout: float = 0.1, flash_attn: bool = False):
        super().__init__()
        self.d_model = d_model
        self.num_heads = num_heads
        self.num_key_value_heads = num_key_value_heads or max(1, num_heads // 4)
        self.groups = num_heads // self.num_key_value_heads
        self.head_dim = d_model // num_heads
        self.q_proj = nn.Linear(d_model, num_heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(d_model, self.num_key_value_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(d_model, self.num_key_value_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(num_heads * self.head_dim, d_model, bias=False)
        self.dropout = nn.Dropout(dropout)
        self.dropout_p = dropout
        self.scale = math.sqrt(self.head_dim)
        self.flash_attn = flash_attn and hasattr(F, "scaled_dot_product_attention")

    def _repeat_kv(self, t: torch.Tensor) -> torch.Tensor:
        if self.groups == 1:
            return t
        b, h, s, d = t.shape
        return t[:, :, None, :, :].expand(b, h, self.groups, s, d).reshape(b, h * self.groups, s, d)

    def forward(self, hidden_states, attention_mask=None, past_key_value=None, use_cache=False):
        bsz, seq_len, _ = hidden_states.size()
        q = self.q_proj(hidden_states).view(bsz, seq_len, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(hidden_states).view(bsz, seq_len, self.num_key_value_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(hidden_states).view(bsz, seq_len, self.num_key_value_heads, self.head_dim).transpose(1, 2)
        if past_key_value is not None:
            k = torch.cat([past_key_value[0], k], dim=2)
            v = torch.cat([past_key_value[1], v], dim=2)
        present = (k, v) if use_cache else None
        k = self._repeat_kv(k)
        v = self._repeat_kv(v)

        if self.flash_attn:
            attn_mask = None
            if attention_mask is not None:
                attn_mask = attention_mask.unsqueeze(0).unsqueeze(0) if attention_mask.dim() == 2 else attention_mask
                attn_mask = attn_mask[:, :, :seq_len, : k.shape[-2]]
                if attn_mask.dtype == torch.bool:
                    pass
                elif torch.is_floating_point(attn_mask):
                    attn_mask = torch.isneginf(attn_mask)
                else:
                    attn_mask = attn_mask == 0
            out = F.scaled_dot_product_attention(
                q,
                k,
                v,
                attn_mask=attn_mask,  # expect: ATT002
                dropout_p=self.dropout_p if self.training else 0.0,
                is_causal=False,  # causality is already in the mask
            )
        else:
            scores = torch.matmul(q, k.transpose(2, 3)) / self.scale
            if attention_mask is not None:
                causal_mask = attention_mask.unsqueeze(0).unsqueeze(0) if attention_mask.dim() == 2 else attention_mask
                causal_mask = causal_mask[:, :, :seq_len, : k.shape[-2]]
                if causal_mask.dtype == torch.bool:
                    additive = torch.zeros_like(causal_mask, dtype=scores.dtype).masked_fill(causal_mask, torch.finfo(scores.dtype).min)
                else:
                    causal_mask = causal_mask.to(scores.dtype)
                    additive = (1.0 - causal_mask) * torch.finfo(scores.dtype).min
                scores = scores + additive
            weights = F.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)
            out = torch.matmul(self.dropout(weights), v)

        out = out.transpose(1, 2).contiguous().reshape(bsz, seq_len, self.d_model)
        return self.o_proj(out), present
