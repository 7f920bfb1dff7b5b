import torch
import torch.nn as nn


class Attn(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.mha = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, x, ids, pad):
        B, S, _ = x.shape
        blocked = (ids == pad)[:, None, :].expand(B, S, S)  # (B, S, S) True where the key is padding
        blocked = blocked.repeat_interleave(self.h, dim=0)  # (B*h, S, S)
        out, _ = self.mha(x, x, x, attn_mask=blocked)
        return out
