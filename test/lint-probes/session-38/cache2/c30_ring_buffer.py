import torch
import torch.nn as nn
import torch.nn.functional as F


class RollingKV(nn.Module):
    """Rolling buffer of the last W keys for one-token decoding (Mistral-style)."""

    def __init__(self, batch, heads, window, head_dim):
        super().__init__()
        self.window = window
        self.register_buffer("k", torch.zeros(batch, heads, window, head_dim))
        self.register_buffer("v", torch.zeros(batch, heads, window, head_dim))
        self.pos = 0

    def step(self, q, k_new, v_new):
        # one new token: q, k_new, v_new are (B, H, 1, D)
        assert q.shape[2] == 1
        slot = self.pos % self.window
        self.k[:, :, slot] = k_new[:, :, 0]
        self.v[:, :, slot] = v_new[:, :, 0]
        self.pos += 1
        n = min(self.pos, self.window)
        return F.scaled_dot_product_attention(q, self.k[:, :, :n], self.v[:, :, :n])
