import torch
import torch.nn as nn

NEG = -1e4  # large enough to mask, small enough for float16


def attention(q, k, v, pad):
    s = torch.matmul(q, k.transpose(-1, -2)) / q.size(-1) ** 0.5
    s = s.masked_fill(pad.unsqueeze(1).unsqueeze(1), NEG)
    return torch.matmul(torch.softmax(s, dim=-1), v)


class Layer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.proj = nn.Linear(d, 3 * d)

    def forward(self, x, pad):
        B, T, D = x.shape
        q, k, v = self.proj(x).view(B, T, 3, self.h, -1).transpose(1, 3).unbind(2)
        return attention(q, k, v, pad).transpose(1, 2).reshape(B, T, D)
