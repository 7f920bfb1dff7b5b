import math
import torch
import torch.nn as nn
from masks import subsequent_mask


def attention(q, k, v, mask):
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
    scores = scores.masked_fill(mask == 0, float("-inf"))
    return torch.matmul(scores.softmax(dim=-1), v)


class Decoder(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, -1)
        return attention(q, k, v, subsequent_mask(x.size(1)).to(x.device))
