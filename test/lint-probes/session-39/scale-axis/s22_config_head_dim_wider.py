import torch
import torch.nn as nn
from dataclasses import dataclass


@dataclass
class Cfg:
    hidden_size: int = 2048
    num_attention_heads: int = 8
    head_dim: int = 256


class WideHeads(nn.Module):
    """head_dim is its own field (256), not hidden_size // heads; q_proj widens to heads * head_dim."""

    def __init__(self, config: Cfg):
        super().__init__()
        self.n = config.num_attention_heads
        self.head_dim = config.head_dim
        self.scaling = config.head_dim ** -0.5
        self.q_proj = nn.Linear(config.hidden_size, self.n * self.head_dim)
        self.k_proj = nn.Linear(config.hidden_size, self.n * self.head_dim)
        self.v_proj = nn.Linear(config.hidden_size, self.n * self.head_dim)
        self.o_proj = nn.Linear(self.n * self.head_dim, config.hidden_size)

    def forward(self, hidden_states):
        B, T, _ = hidden_states.shape
        shape = (B, T, self.n, self.head_dim)
        q = self.q_proj(hidden_states).view(shape).transpose(1, 2)
        k = self.k_proj(hidden_states).view(shape).transpose(1, 2)
        v = self.v_proj(hidden_states).view(shape).transpose(1, 2)
        w = torch.matmul(q, k.transpose(2, 3)) * self.scaling
        w = nn.functional.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
        o = torch.matmul(w, v).transpose(1, 2).reshape(B, T, -1)
        return self.o_proj(o)
