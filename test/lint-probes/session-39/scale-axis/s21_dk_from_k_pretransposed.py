import torch
import torch.nn as nn


class PreTransposedKeys(nn.Module):
    """Keys are kept as (B, H, d, S); their size at -2 is the feature width."""

    def __init__(self, d_model, n_head):
        super().__init__()
        self.n_head = n_head
        self.c_attn = nn.Linear(d_model, 3 * d_model)

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)  # (B, H, T, d)
        k = k.view(B, T, self.n_head, C // self.n_head).permute(0, 2, 3, 1)  # (B, H, d, T)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k) * (1.0 / k.shape[-2] ** 0.5)
        att = att.softmax(dim=-1)
        return (att @ v).transpose(1, 2).contiguous().view(B, T, C)
