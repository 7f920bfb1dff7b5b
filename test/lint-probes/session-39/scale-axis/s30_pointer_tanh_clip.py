import torch
import torch.nn as nn


class PointerDecoderStep(nn.Module):
    """Pointer network with logit clipping C * tanh(u) (C = 10): u is bounded, not scaled by sqrt(d)."""

    def __init__(self, hidden, C=10.0):
        super().__init__()
        self.W_ref = nn.Conv1d(hidden, hidden, 1)
        self.W_q = nn.Linear(hidden, hidden)
        self.v = nn.Parameter(torch.empty(hidden).uniform_(-hidden ** -0.5, hidden ** -0.5))
        self.C = C

    def forward(self, query, ref, visited):
        # query: (B, h); ref: (B, S, h); visited: (B, S) bool
        e = self.W_ref(ref.transpose(1, 2))  # (B, h, S)
        q = self.W_q(query).unsqueeze(2)  # (B, h, 1)
        u = torch.einsum("h,bhs->bs", self.v, torch.tanh(q + e))  # (B, S)
        logits = self.C * torch.tanh(u)
        logits = logits.masked_fill(visited, float("-inf"))
        probs = torch.softmax(logits, dim=-1)
        return probs
