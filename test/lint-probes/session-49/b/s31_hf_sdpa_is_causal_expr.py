import torch
import torch.nn.functional as F
from torch import nn


class SdpaAttention(nn.Module):
    def __init__(self, d, h, layer_idx):
        super().__init__()
        self.h, self.layer_idx, self.is_causal = h, layer_idx, True
        self.q_proj = nn.Linear(d, d)
        self.k_proj = nn.Linear(d, d)
        self.v_proj = nn.Linear(d, d)

    def forward(self, hidden, attention_mask=None, past_key_value=None, cache_position=None):
        B, q_len, _ = hidden.shape
        q = self.q_proj(hidden).view(B, q_len, self.h, -1).transpose(1, 2)
        k = self.k_proj(hidden).view(B, q_len, self.h, -1).transpose(1, 2)
        v = self.v_proj(hidden).view(B, q_len, self.h, -1).transpose(1, 2)
        if past_key_value is not None:
            k, v = past_key_value.update(k, v, self.layer_idx, {"cache_position": cache_position})
        causal_mask = attention_mask
        if attention_mask is not None:
            causal_mask = attention_mask[:, :, :, : k.shape[-2]]
        is_causal = True if causal_mask is None and q_len > 1 else False
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=causal_mask, is_causal=is_causal)
        return out.transpose(1, 2).reshape(B, q_len, -1)
