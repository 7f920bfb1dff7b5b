import torch
import torch.nn as nn
from utils import masked_softmax


class RetrievalReader(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)

    def forward(self, query, passages, passage_mask):
        # query: (B, Lq, d); passages: (B, Lp, d); passage_mask: (B, Lp), may be all False
        s = self.q(query) @ self.k(passages).transpose(1, 2) / query.shape[-1] ** 0.5
        w = masked_softmax(s, passage_mask[:, None, :], dim=-1)
        return w @ passages
