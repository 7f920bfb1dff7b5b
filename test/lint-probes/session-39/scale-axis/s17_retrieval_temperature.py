import torch
import torch.nn as nn
import torch.nn.functional as F


class DenseRetriever(nn.Module):
    """Query/document similarity with a temperature: retrieval scores, not attention."""

    def __init__(self, encoder, dim, temperature=0.05):
        super().__init__()
        self.encoder = encoder
        self.temperature = temperature
        self.proj = nn.Linear(dim, dim)

    def forward(self, query_ids, doc_ids):
        q = F.normalize(self.proj(self.encoder(query_ids)[:, 0]), dim=-1)  # (B, D)
        d = F.normalize(self.proj(self.encoder(doc_ids)[:, 0]), dim=-1)  # (B, D)
        scores = q @ d.t() / self.temperature  # (B, B)
        probs = scores.softmax(dim=-1)
        labels = torch.arange(q.size(0), device=q.device)
        return F.cross_entropy(scores, labels), probs
