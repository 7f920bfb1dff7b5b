import math
import torch
import torch.nn as nn
from attn_lib import Embed, batch_ids


class SelfAttention(nn.Module):
    def __init__(self, d_model=32):
        super().__init__()
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        weights = torch.softmax(scores, dim=1)  # expect: ATT001
        return weights @ v


torch.manual_seed(0)
ids = batch_ids([[5, 6, 7, 8], [9, 10, 11, 12]])
x = Embed()(ids)
print(SelfAttention()(x).shape)
