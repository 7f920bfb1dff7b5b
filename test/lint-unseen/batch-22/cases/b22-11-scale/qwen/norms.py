import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + self.eps) * self.weight


class RoPE(nn.Module):
    def __init__(self, head_dim: int, context_length: int, theta: float = 10000.0):
        super().__init__()
        inv = 1.0 / theta ** (torch.arange(0, head_dim, 2).float() / head_dim)
        ang = torch.arange(context_length).float()[:, None] * inv[None, :]
        self.register_buffer("cos", ang.cos(), persistent=False)
        self.register_buffer("sin", ang.sin(), persistent=False)

    def forward(self, x: torch.Tensor, token_positions: torch.Tensor) -> torch.Tensor:
        """x: (batch, seq_len, head_dim, heads); rotates pairs along head_dim."""
        cos = self.cos[token_positions][None, :, :, None]
        sin = self.sin[token_positions][None, :, :, None]
        x1, x2 = x[:, :, 0::2, :], x[:, :, 1::2, :]
        out = torch.empty_like(x)
        out[:, :, 0::2, :] = x1 * cos - x2 * sin
        out[:, :, 1::2, :] = x1 * sin + x2 * cos
        return out
