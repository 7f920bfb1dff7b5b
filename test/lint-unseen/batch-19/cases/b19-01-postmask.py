# case: b19-01-postmask
# modelled-on: Zafirmk/miniGPT https://github.com/Zafirmk/miniGPT/commit/37b5844eef33897741d61ba11edc894f7f1d937f
# label: buggy
# class: real-bug
# pattern: a from-scratch encoder-decoder transformer with raw weight matrices: the attention helper divides q @ k^T by sqrt(d_k), applies an nn.Softmax(dim=-1) built in __init__, and only then applies the mask, by a matrix product of the probabilities with the 0/1 mask, before the product with the values
# why: buggy: the mask is applied after the softmax (and by a matmul, not elementwise), so padded and future positions keep their probability mass and the rows are no longer distributions; the fixing commit fills the masked scores with -inf before the softmax
# source: https://github.com/Zafirmk/miniGPT https://github.com/Zafirmk/miniGPT/commit/37b5844eef33897741d61ba11edc894f7f1d937f model.py
import numpy as np
import torch
import torch.nn as nn


class ResidualNorm(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.norm = nn.LayerNorm(width)

    def forward(self, x, sublayer):
        return self.norm(x + sublayer(x))


class MultiHeadAttention(nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        assert width % heads == 0, "width must be divisible by heads"
        self.head_width = width / heads
        self.softmax = nn.Softmax(dim=-1)
        self.width = width
        self.heads = heads
        self.wq = torch.randn((width, width))
        self.wk = torch.randn((width, width))
        self.wv = torch.randn((width, width))
        self.wo = torch.randn((width, width))

    def attend(self, q, k, v, mask):
        logits = q @ k.transpose(-2, -1)
        norm = np.sqrt(self.head_width)
        probs = self.softmax(logits / norm)
        if mask is not None:
            probs = probs @ mask  # expect: ATT006
        return probs @ v

    def forward(self, q, k, v, mask):
        qp = q @ self.wq
        kp = k @ self.wk
        vp = v @ self.wv
        qp = qp.view(qp.shape[0], self.heads, q.shape[1], int(self.head_width))
        kp = kp.view(kp.shape[0], self.heads, k.shape[1], int(self.head_width))
        vp = vp.view(vp.shape[0], self.heads, v.shape[1], int(self.head_width))
        out = self.attend(qp, kp, vp, mask)
        out = out.view(out.shape[0], out.shape[2], out.shape[1] * out.shape[3])
        return out @ self.wo


class EncoderLayer(nn.Module):
    def __init__(self, width, hidden, heads):
        super().__init__()
        self.attn = MultiHeadAttention(width, heads)
        self.ff = nn.Sequential(nn.Linear(width, hidden), nn.ReLU(), nn.Linear(hidden, width))
        self.res = nn.ModuleList([ResidualNorm(width) for _ in range(2)])

    def forward(self, x, mask):
        x = self.res[0](x, lambda t: self.attn(t, t, t, mask))
        return self.res[1](x, self.ff)


def causal_mask(size):
    return (torch.triu(torch.ones(1, size, size), diagonal=1) == 0).float()


if __name__ == "__main__":
    layer = EncoderLayer(8, 16, 2)
    x = torch.randn(2, 5, 8)
    print(layer(x, causal_mask(5)).shape)
