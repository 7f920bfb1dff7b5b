import torch
import torch.nn as nn


class GPTNeoLike(nn.Module):
    """Some checkpoints were trained without a scale: the flag keeps them loadable."""

    def __init__(self, embed_dim, num_heads, scale_attn_weights=True):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.scale = self.head_dim ** -0.5 if scale_attn_weights else 1.0
        self.c_attn = nn.Linear(embed_dim, 3 * embed_dim)

    def forward(self, x):
        B, T, E = x.shape
        q, k, v = self.c_attn(x).split(E, dim=2)
        q, k, v = (t.view(B, T, self.num_heads, self.head_dim).transpose(1, 2) for t in (q, k, v))
        w = torch.matmul(q, k.transpose(-1, -2)) * self.scale
        w = w.softmax(-1)
        return torch.matmul(w, v).transpose(1, 2).reshape(B, T, E)
