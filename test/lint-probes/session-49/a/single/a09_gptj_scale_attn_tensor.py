import torch
import torch.nn as nn


class GPTJAttention(nn.Module):
    def __init__(self, embed_dim, num_attention_heads, max_positions=2048):
        super().__init__()
        self.embed_dim = embed_dim
        self.num_attention_heads = num_attention_heads
        self.head_dim = embed_dim // num_attention_heads
        self.scale_attn = torch.sqrt(torch.tensor(self.head_dim, dtype=torch.float32)).to(torch.get_default_dtype())
        self.register_buffer("bias", torch.tril(torch.ones((max_positions, max_positions), dtype=torch.bool)).view(1, 1, max_positions, max_positions), persistent=False)
        self.q_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.k_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.v_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.out_proj = nn.Linear(embed_dim, embed_dim, bias=False)

    def _split_heads(self, tensor):
        new_shape = tensor.size()[:-1] + (self.num_attention_heads, self.head_dim)
        return tensor.view(new_shape).permute(0, 2, 1, 3)

    def _attn(self, query, key, value):
        query_length, key_length = query.size(-2), key.size(-2)
        causal_mask = self.bias[:, :, key_length - query_length : key_length, :key_length]
        query = query.to(torch.float32)
        key = key.to(torch.float32)
        attn_weights = torch.matmul(query, key.transpose(-1, -2))
        mask_value = torch.tensor(torch.finfo(attn_weights.dtype).min, dtype=attn_weights.dtype)
        attn_weights = torch.where(causal_mask, attn_weights, mask_value)
        attn_weights = attn_weights / self.scale_attn
        attn_weights = nn.functional.softmax(attn_weights, dim=-1).to(value.dtype)
        return torch.matmul(attn_weights, value)

    def forward(self, hidden_states):
        q = self._split_heads(self.q_proj(hidden_states))
        k = self._split_heads(self.k_proj(hidden_states))
        v = self._split_heads(self.v_proj(hidden_states))
        out = self._attn(q, k, v).permute(0, 2, 1, 3).contiguous()
        return self.out_proj(out.view(out.size()[:-2] + (self.embed_dim,)))
