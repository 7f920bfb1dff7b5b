# The scale is applied to q before the score matmul (as fairseq and OPT do): nothing to report.
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, d=32, heads=2):
        super().__init__()
        self.heads, self.d_head = heads, d // heads
        self.scaling = self.d_head ** -0.5
        self.q_proj, self.k_proj, self.v_proj = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q_proj(x) * self.scaling
        q = q.view(B, T, self.heads, self.d_head).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.heads, self.d_head).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.heads, self.d_head).transpose(1, 2)
        w = torch.einsum("bhqd,bhkd->bhqk", q, k).softmax(-1)
        return torch.einsum("bhqk,bhkd->bhqd", w, v)


torch.manual_seed(0)
print(Attention()(torch.randn(2, 5, 32)).shape)
