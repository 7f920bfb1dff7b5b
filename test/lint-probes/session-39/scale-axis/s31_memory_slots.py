import torch
import torch.nn as nn


class MemoryRead(nn.Module):
    """Queries against a bank of learned memory keys of width mem_dim (one head)."""

    def __init__(self, d_model, n_slots, mem_dim):
        super().__init__()
        self.to_q = nn.Linear(d_model, mem_dim)
        self.mem_keys = nn.Parameter(torch.randn(n_slots, mem_dim) * mem_dim ** -0.5)
        self.mem_vals = nn.Parameter(torch.randn(n_slots, d_model))
        self.scale = mem_dim ** -0.5

    def forward(self, x):
        q = self.to_q(x)  # (B, T, mem_dim)
        w = torch.softmax(q @ self.mem_keys.t() * self.scale, dim=-1)  # (B, T, n_slots)
        return w @ self.mem_vals
