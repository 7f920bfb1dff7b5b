import torch
import torch.nn as nn
import torch.nn.functional as F


class LinearAttention(nn.Module):
    """Causal linear attention with a recurrent state for decoding."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, state=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, -1).unbind(2)
        q, k = F.elu(q) + 1, F.elu(k) + 1
        S = torch.zeros(B, self.heads, q.shape[-1], v.shape[-1], device=x.device) if state is None else state
        Z = torch.zeros(B, self.heads, q.shape[-1], device=x.device)
        outs = []
        for t in range(T):
            S = S + torch.einsum("bhd,bhe->bhde", k[:, t], v[:, t])
            Z = Z + k[:, t]
            num = torch.einsum("bhd,bhde->bhe", q[:, t], S)
            den = torch.einsum("bhd,bhd->bh", q[:, t], Z).unsqueeze(-1)
            outs.append(num / (den + 1e-6))
        return torch.stack(outs, 1).reshape(B, T, C), S
