import torch
import torch.nn as nn

from constants import ATTN_SCALE, HEAD_DIM, HEADS, HIDDEN


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(HIDDEN, 3 * HIDDEN)
        self.proj = nn.Linear(HIDDEN, HIDDEN)

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, HEADS, HEAD_DIM).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1)) * ATTN_SCALE
        attn = attn.softmax(dim=-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(B, T, HIDDEN))
