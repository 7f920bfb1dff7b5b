import torch
import torch.nn as nn
import torch.nn.functional as F

from qaenc.heads import SelfHeads


class Residual(nn.Module):
    def __init__(self, layer, d_model, p):
        super().__init__()
        self.norm = nn.LayerNorm(d_model)
        self.layer = layer
        self.p = p

    def forward(self, x, depth, mask=None):
        l, L = depth
        h = self.norm(x.transpose(1, 2)).transpose(1, 2)
        h = F.dropout(h, p=self.p, training=self.training)
        h = self.layer(h) if mask is None else self.layer(h, mask)
        rate = self.p * float(l) / L
        if self.training and bool(torch.rand(1) < rate):
            return x, (l + 1, L)
        return F.dropout(h, p=rate, training=self.training) + x, (l + 1, L)


class AttnBlock(nn.Module):
    def __init__(self, d_model, p):
        super().__init__()
        self.attn = Residual(SelfHeads(d_model, heads=8, p=p), d_model, p)
        self.ff = Residual(nn.Sequential(nn.Conv1d(d_model, d_model, 1), nn.ReLU(), nn.Conv1d(d_model, d_model, 1)), d_model, p)

    def forward(self, x, depth, mask=None):
        x, depth = self.attn(x, depth, mask=mask)
        return self.ff(x, depth)


def encode_question(block, emb, qwids):
    mask_Q = (qwids != 0).float()
    x, _ = block(emb(qwids).transpose(1, 2), (1, 2), mask=mask_Q)
    return x
