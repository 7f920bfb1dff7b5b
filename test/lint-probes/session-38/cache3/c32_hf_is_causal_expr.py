import torch.nn as nn
import torch.nn.functional as F


class SdpaAttention(nn.Module):
    def __init__(self, hidden, heads, layer_idx):
        super().__init__()
        self.heads, self.layer_idx = heads, layer_idx
        self.q_proj = nn.Linear(hidden, hidden)
        self.k_proj = nn.Linear(hidden, hidden)
        self.v_proj = nn.Linear(hidden, hidden)
        self.is_causal = True

    def forward(self, hidden_states, attention_mask=None, past_key_value=None, cache_position=None):
        bsz, q_len, _ = hidden_states.shape
        q = self.q_proj(hidden_states).view(bsz, q_len, self.heads, -1).transpose(1, 2)
        k = self.k_proj(hidden_states).view(bsz, q_len, self.heads, -1).transpose(1, 2)
        v = self.v_proj(hidden_states).view(bsz, q_len, self.heads, -1).transpose(1, 2)
        if past_key_value is not None:
            k, v = past_key_value.update(k, v, self.layer_idx, {"cache_position": cache_position})
        causal_mask = attention_mask[:, :, :, : k.shape[-2]] if attention_mask is not None else None
        is_causal = True if causal_mask is None and q_len > 1 else False
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=causal_mask, is_causal=is_causal)
        return out.transpose(1, 2).reshape(bsz, q_len, -1)
