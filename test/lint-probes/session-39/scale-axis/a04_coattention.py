import torch
import torch.nn as nn


class CoAttention(nn.Module):
    """Dynamic co-attention: one affinity matrix normalised along each of its two axes."""

    def __init__(self, hidden):
        super().__init__()
        self.proj = nn.Linear(hidden, hidden)

    def forward(self, D, Q):
        # D: (B, m, h) document, Q: (B, n, h) question
        Qp = torch.tanh(self.proj(Q))
        L = torch.bmm(D, Qp.transpose(1, 2))  # (B, m, n)
        A_Q = torch.softmax(L, dim=1)  # over document positions, for each question word
        A_D = torch.softmax(L, dim=2)  # over question words, for each document position
        C_Q = torch.bmm(A_Q.transpose(1, 2), D)  # (B, n, h)
        C_D = torch.bmm(A_D, torch.cat([Qp, C_Q], dim=2))  # (B, m, 2h)
        return C_D
