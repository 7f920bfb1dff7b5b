import torch
import torch.nn as nn
from config import ModelConfig


class SelfAttention(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        self.h = cfg.n_heads
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model)

    def forward(self, x, keep):
        B, T, D = x.shape
        q, k, v = self.qkv(x).reshape(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        scores = (q @ k.transpose(-2, -1)) * (D // self.h) ** -0.5
        scores = scores.masked_fill(~keep[:, None, None, :], self.cfg.mask_value)
        return (scores.softmax(-1) @ v).transpose(1, 2).reshape(B, T, D)
