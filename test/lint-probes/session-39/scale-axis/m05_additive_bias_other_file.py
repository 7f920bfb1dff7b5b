import math
import torch
import torch.nn as nn

from m05_bias_util import causal_bias


class CausalHead(nn.Module):
    def __init__(self, d, block):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.register_buffer("bias", causal_bias(block))  # (block, block) 0 / -inf

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        s = q @ k.transpose(1, 2) / math.sqrt(D)
        s = s + self.bias[:T, :T]
        w = s.softmax(-1)
        keep = torch.ones(T, T, device=x.device).tril()
        w = w * keep  # already zero above the diagonal; kept to make the masked weights exactly 0
        return w @ v
