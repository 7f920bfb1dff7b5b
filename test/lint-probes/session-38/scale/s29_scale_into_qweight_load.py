import math
import torch
import torch.nn as nn


class FusedScaleLinear(nn.Module):
    """Inference export: fold 1/sqrt(d) into W_q so the graph has no scale op."""

    def __init__(self, attn):
        super().__init__()
        self.h = attn.h
        self.d = attn.d
        w = attn.wq.weight.data / math.sqrt(attn.d)
        self.wq = nn.Linear(w.shape[1], w.shape[0], bias=False)
        self.wq.weight.data.copy_(w)
        self.wk = attn.wk
        self.wv = attn.wv

    def forward(self, x):
        B, T, _ = x.shape
        q = self.wq(x).view(B, T, self.h, self.d).transpose(1, 2)
        k = self.wk(x).view(B, T, self.h, self.d).transpose(1, 2)
        v = self.wv(x).view(B, T, self.h, self.d).transpose(1, 2)
        a = torch.softmax(q @ k.transpose(-2, -1), dim=-1)
        return a @ v
