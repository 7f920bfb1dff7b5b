import torch.nn as nn
from flash_attn import flash_attn_func


class Gemma2Flash(nn.Module):
    def __init__(self, hidden, heads, head_dim, query_pre_attn_scalar, softcap=50.0):
        super().__init__()
        self.heads, self.head_dim = heads, head_dim
        self.scaling = query_pre_attn_scalar ** -0.5
        self.softcap = softcap
        self.qkv = nn.Linear(hidden, 3 * heads * head_dim, bias=False)

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.head_dim).unbind(2)
        out = flash_attn_func(q, k, v, softmax_scale=self.scaling, causal=True, softcap=self.softcap)
        return out.reshape(B, T, -1)
