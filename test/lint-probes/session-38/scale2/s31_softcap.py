import torch
import torch.nn as nn


class SoftcapAttention(nn.Module):
    """Gemma-2 style: scale, then soft-cap the logits with tanh."""

    def __init__(self, hidden_size, num_heads, head_dim, query_pre_attn_scalar, attn_logit_softcapping=50.0):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = head_dim
        self.scaling = query_pre_attn_scalar ** -0.5
        self.softcap = attn_logit_softcapping
        self.q_proj = nn.Linear(hidden_size, num_heads * head_dim, bias=False)
        self.k_proj = nn.Linear(hidden_size, num_heads * head_dim, bias=False)
        self.v_proj = nn.Linear(hidden_size, num_heads * head_dim, bias=False)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(2, 3)) * self.scaling
        scores = scores / self.softcap
        scores = torch.tanh(scores)
        scores = scores * self.softcap
        w = torch.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)
        return torch.matmul(w, v)
