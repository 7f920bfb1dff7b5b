import torch
import torch.nn as nn
import torch.nn.functional as F


class BiAttention(nn.Module):
    """Bilinear attention maps per glimpse over (regions x words), normalised jointly."""

    def __init__(self, v_dim, q_dim, h, glimpse):
        super().__init__()
        self.glimpse = glimpse
        self.v_proj = nn.Linear(v_dim, h)
        self.q_proj = nn.Linear(q_dim, h)
        self.h_mat = nn.Parameter(torch.randn(1, glimpse, 1, h))

    def forward(self, v, q):
        # v: (B, V, v_dim) regions, q: (B, Q, q_dim) words
        B, V, _ = v.shape
        Q = q.size(1)
        vp = self.v_proj(v).unsqueeze(1)  # (B, 1, V, h)
        qp = self.q_proj(q).unsqueeze(1)  # (B, 1, Q, h)
        logits = torch.matmul(self.h_mat * vp, qp.transpose(2, 3))  # (B, G, V, Q)
        p = F.softmax(logits.view(-1, self.glimpse, V * Q), dim=2)
        return p.view(-1, self.glimpse, V, Q)
