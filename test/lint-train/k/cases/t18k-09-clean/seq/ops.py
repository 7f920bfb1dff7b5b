import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout):
        super().__init__()
        self.d_qk = d_model // n_heads
        self.n_heads = n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.out = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)
        self.scale = 1.0 / (self.d_qk ** 0.5)

    def forward(self, q, k, v, mask=None):
        """q [B, Q, d], k / v [B, N, d], mask [B, Q or 1, N] with 1 = attend."""
        B, Q, N = q.shape[0], q.shape[1], k.shape[1]
        qp = self.q_proj(q).view(B, Q, self.n_heads, self.d_qk)
        kp = self.k_proj(k).view(B, N, self.n_heads, self.d_qk)
        vp = self.v_proj(v).view(B, N, self.n_heads, self.d_qk)
        score = torch.einsum("bqhi,bnhi->bhqn", qp, kp)
        score *= self.scale
        if mask is not None:
            mask = mask.unsqueeze(1)  # head axis
            score.masked_fill_(mask == 0, -1e10)
        w = self.dropout(F.softmax(score, dim=-1))
        out = torch.einsum("bhqn,bnhi->bqhi", w, vp).reshape(B, Q, -1)
        return self.out(out), w
