import torch
import torch.nn as nn


class GPT2Attention(nn.Module):
    def __init__(self, embed_dim, num_heads, layer_idx=None, scale_attn_by_inverse_layer_idx=False):
        super().__init__()
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.layer_idx = layer_idx
        self.scale_attn_weights = True
        self.scale_attn_by_inverse_layer_idx = scale_attn_by_inverse_layer_idx
        self.c_attn = nn.Linear(embed_dim, 3 * embed_dim)
        self.c_proj = nn.Linear(embed_dim, embed_dim)

    def _upcast_and_reordered_attn(self, query, key, value):
        bsz, num_heads, q_seq_len, dk = query.size()
        _, _, k_seq_len, _ = key.size()
        attn_weights = torch.empty(bsz * num_heads, q_seq_len, k_seq_len, dtype=torch.float32, device=query.device)
        scale_factor = 1.0
        if self.scale_attn_weights:
            scale_factor /= float(value.size(-1)) ** 0.5
        if self.scale_attn_by_inverse_layer_idx:
            scale_factor /= float(self.layer_idx + 1)
        q, k = query.reshape(-1, q_seq_len, dk), key.transpose(-1, -2).reshape(-1, dk, k_seq_len)
        attn_weights = torch.baddbmm(attn_weights, q.float(), k.float(), beta=0, alpha=scale_factor)
        attn_weights = attn_weights.reshape(bsz, num_heads, q_seq_len, k_seq_len)
        attn_weights = nn.functional.softmax(attn_weights, dim=-1).type(value.dtype)
        return torch.matmul(attn_weights, value)

    def forward(self, hidden_states):
        b, t, _ = hidden_states.shape
        q, k, v = self.c_attn(hidden_states).split(self.embed_dim, dim=2)
        q, k, v = (x.view(b, t, self.num_heads, self.head_dim).transpose(1, 2) for x in (q, k, v))
        out = self._upcast_and_reordered_attn(q, k, v)
        return self.c_proj(out.transpose(1, 2).reshape(b, t, self.embed_dim))
