import torch
import torch.nn as nn
import torch.nn.functional as F


class RetrievalEncoder(nn.Module):
    """Bidirectional encoder over retrieved passages; passage keys are cached across queries."""

    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)
        self.passage_cache = {}

    def forward(self, x, passage_id, passage):
        B, T, d = x.shape
        q, _, _ = self.qkv(x).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        if passage_id not in self.passage_cache:
            _, pk, pv = self.qkv(passage).view(B, passage.size(1), 3, self.h, -1).permute(2, 0, 3, 1, 4)
            self.passage_cache[passage_id] = (pk, pv)
        pk, pv = self.passage_cache[passage_id]
        out = F.scaled_dot_product_attention(q, pk, pv, is_causal=False)
        return out.transpose(1, 2).reshape(B, T, d)
