import torch
import torch.nn as nn


class ChunkedSingleHead(nn.Module):
    """Attention inside fixed chunks, one head as wide as the model: (B, n_chunks, L, d_model)."""

    def __init__(self, d_model, chunk):
        super().__init__()
        self.d_model = d_model
        self.chunk = chunk
        self.wq = nn.Linear(d_model, d_model)
        self.wk = nn.Linear(d_model, d_model)
        self.wv = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, D = x.shape
        n = T // self.chunk
        q = self.wq(x).view(B, n, self.chunk, D)
        k = self.wk(x).view(B, n, self.chunk, D)
        v = self.wv(x).view(B, n, self.chunk, D)
        s = torch.matmul(q, k.transpose(-1, -2)) / self.d_model ** 0.5  # (B, n, L, L)
        return torch.matmul(s.softmax(-1), v).view(B, T, D)


class MultiHeadElsewhere(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.d_k = d_model // n_heads
