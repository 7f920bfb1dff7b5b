# case: scale-gpt2-scale-attn-weights-layer-idx
# modelled-on: stanford-crfm/mistral https://github.com/stanford-crfm/mistral/pull/77
# label: correct
# pattern: GPT-2 eager attention: divide by sqrt(value head dim) when scale_attn_weights, optionally also by (layer_idx + 1) (Mistral/Megatron stability trick), causal mask applied with torch.where and finfo(dtype).min
# why: the head dims of value and key are equal, so value.size(-1) ** 0.5 is sqrt(d_k); the extra 1/(layer_idx+1) is a deliberate, configured scaling; finfo(dtype).min is safe in fp16
# looks-like: ATT003, ATT004, ATT007
import torch
from torch import nn


class GPT2Attention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, max_positions: int, layer_idx: int,
                 scale_attn_weights: bool = True, scale_attn_by_inverse_layer_idx: bool = False):
        super().__init__()
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.layer_idx = layer_idx
        self.scale_attn_weights = scale_attn_weights
        self.scale_attn_by_inverse_layer_idx = scale_attn_by_inverse_layer_idx
        self.c_attn = nn.Linear(embed_dim, 3 * embed_dim)
        self.c_proj = nn.Linear(embed_dim, embed_dim)
        self.register_buffer(
            "bias",
            torch.tril(torch.ones((max_positions, max_positions), dtype=torch.bool)).view(1, 1, max_positions, max_positions),
            persistent=False,
        )

    def _attn(self, query, key, value, attention_mask=None):
        attn_weights = torch.matmul(query, key.transpose(-1, -2))
        if self.scale_attn_weights:
            attn_weights = attn_weights / torch.full(
                [], value.size(-1) ** 0.5, dtype=attn_weights.dtype, device=attn_weights.device
            )
        if self.scale_attn_by_inverse_layer_idx:
            attn_weights = attn_weights / float(self.layer_idx + 1)

        query_length, key_length = query.size(-2), key.size(-2)
        causal_mask = self.bias[:, :, key_length - query_length : key_length, :key_length]
        mask_value = torch.finfo(attn_weights.dtype).min
        mask_value = torch.full([], mask_value, dtype=attn_weights.dtype, device=attn_weights.device)
        attn_weights = torch.where(causal_mask, attn_weights, mask_value)
        if attention_mask is not None:
            attn_weights = attn_weights + attention_mask
        attn_weights = nn.functional.softmax(attn_weights, dim=-1)
        return torch.matmul(attn_weights, value), attn_weights

    def forward(self, hidden_states, layer_past=None, attention_mask=None):
        query, key, value = self.c_attn(hidden_states).split(self.embed_dim, dim=2)
        B, T, _ = hidden_states.shape
        query = query.view(B, T, self.num_heads, self.head_dim).permute(0, 2, 1, 3)
        key = key.view(B, T, self.num_heads, self.head_dim).permute(0, 2, 1, 3)
        value = value.view(B, T, self.num_heads, self.head_dim).permute(0, 2, 1, 3)
        if layer_past is not None:
            past_key, past_value = layer_past
            key = torch.cat((past_key, key), dim=-2)
            value = torch.cat((past_value, value), dim=-2)
        attn_output, _ = self._attn(query, key, value, attention_mask)
        attn_output = attn_output.permute(0, 2, 1, 3).contiguous().view(B, T, self.embed_dim)
        return self.c_proj(attn_output), (key, value)
