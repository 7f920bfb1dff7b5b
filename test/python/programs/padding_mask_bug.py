import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from attn_lib import Embed, batch_ids, padding_mask


class Attention(nn.Module):
    def __init__(self, d_model=32, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x, mask):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(D // self.heads)
        # mask comes from attn_lib.padding_mask: True = real token
        scores = scores.masked_fill(mask[:, None, None, :], float("-inf"))  # expect: ATT002
        return F.softmax(scores, dim=-1) @ v


torch.manual_seed(0)
ids = batch_ids([[5, 6, 7, 8, 9], [10, 11, 12]])
x = Embed()(ids)
print(Attention()(x, padding_mask(ids)).shape)
