import torch
import torch.nn as nn
import torch.nn.functional as F


class PointerDecoderStep(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.W_ref = nn.Conv1d(hidden, hidden, 1)
        self.W_q = nn.Linear(hidden, hidden)
        self.v = nn.Parameter(torch.empty(hidden).uniform_(-0.08, 0.08))

    def forward(self, query, ref, visited):
        # query: (B, H); ref: (B, H, N) channels-first; visited: (B, N) bool
        e = self.W_ref(ref)  # (B, H, N)
        q = self.W_q(query).unsqueeze(2)  # (B, H, 1)
        u = torch.einsum("h,bhn->bn", self.v, torch.tanh(e + q))  # (B, N)
        u = u.masked_fill(visited, float("-inf"))
        probs = F.softmax(u, dim=1)
        glimpse = torch.bmm(e, probs.unsqueeze(2)).squeeze(2)  # (B, H)
        return probs, glimpse
