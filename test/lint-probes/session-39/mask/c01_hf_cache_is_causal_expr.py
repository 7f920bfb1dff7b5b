import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, d, h, layer_idx):
        super().__init__()
        self.h, self.dh, self.layer_idx = h, d // h, layer_idx
        self.q_proj, self.k_proj, self.v_proj = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)

    def forward(self, x, attention_mask=None, past_key_value=None, cache_position=None):
        B, L, _ = x.shape
        q = self.q_proj(x).view(B, L, self.h, self.dh).transpose(1, 2)
        k = self.k_proj(x).view(B, L, self.h, self.dh).transpose(1, 2)
        v = self.v_proj(x).view(B, L, self.h, self.dh).transpose(1, 2)
        if past_key_value is not None:
            k, v = past_key_value.update(k, v, self.layer_idx, {"cache_position": cache_position})
        causal_mask = attention_mask[:, :, :, : k.shape[-2]] if attention_mask is not None else None
        is_causal = causal_mask is None and L > 1
        return F.scaled_dot_product_attention(q, k, v, attn_mask=causal_mask, is_causal=is_causal)
