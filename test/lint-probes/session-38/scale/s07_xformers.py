import torch.nn as nn
import xformers.ops as xops


class XfAttention(nn.Module):
    def __init__(self, dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.dh = dim // num_heads
        self.to_qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, M, _ = x.shape
        q, k, v = self.to_qkv(x).view(B, M, 3, self.num_heads, self.dh).unbind(2)  # (B, M, H, K)
        out = xops.memory_efficient_attention(q, k, v, scale=self.dh ** -0.5,
                                              attn_bias=xops.LowerTriangularMask())
        return out.reshape(B, M, -1)
