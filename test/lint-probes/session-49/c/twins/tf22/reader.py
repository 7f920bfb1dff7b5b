import torch
import torch.nn as nn
from functional import exp_normalise


class Reader(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.proj = nn.Linear(d, d)

    def forward(self, question, context, context_keep):
        # question: (B, d); context: (B, T, d); context_keep: (B, T) 0/1
        s = torch.bmm(context, self.proj(question).unsqueeze(-1)).squeeze(-1)  # (B, T)
        w = exp_normalise(s, context_keep.float())
        return torch.bmm(w.unsqueeze(1), context).squeeze(1)
