import math
import torch
import torch.nn as nn


def alibi_slopes(n):
    start = 2 ** (-(2 ** -(math.log2(n) - 3)))
    return torch.tensor([start * start ** i for i in range(n)])


class AlibiAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.register_buffer("slopes", alibi_slopes(heads), persistent=False)

    def forward(self, x, attention_mask):
        # attention_mask: (B, T) 1 for tokens, 0 for padding (HF convention)
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, C // self.h).permute(2, 0, 3, 1, 4)
        pos = torch.arange(T, device=x.device)
        bias = -(pos[None, :] - pos[:, None]).abs().float() * self.slopes[:, None, None]  # (H, T, T)
        s = (q @ k.transpose(-2, -1)) / math.sqrt(C // self.h) + bias
        s = s + (1.0 - attention_mask[:, None, None, :].to(s.dtype)) * torch.finfo(s.dtype).min
        w = s.softmax(-1)
        return (w @ v).transpose(1, 2).reshape(B, T, C)
