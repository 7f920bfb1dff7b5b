import torch
import torch.nn as nn
import torch.nn.functional as F


class CoattentionEncoder(nn.Module):
    """Dynamic coattention: one affinity matrix read in both directions."""

    def __init__(self, hidden):
        super().__init__()
        self.q_proj = nn.Linear(hidden, hidden)

    def forward(self, D, Q):
        # D: (B, m, h) document; Q: (B, n, h) question
        Q = torch.tanh(self.q_proj(Q))
        L = torch.bmm(D, Q.transpose(1, 2))  # (B, m, n)
        A_Q = F.softmax(L, dim=1)  # (B, m, n): for each question word, weights over document words
        A_D = F.softmax(L, dim=2)  # (B, m, n): for each document word, weights over question words
        C_Q = torch.bmm(A_Q.transpose(1, 2), D)  # (B, n, h)
        C_D = torch.bmm(A_D, torch.cat([Q, C_Q], dim=2))  # (B, m, 2h)
        return C_D
