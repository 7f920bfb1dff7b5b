import torch
from torch import nn


class Classifier(nn.Module):
    def __init__(self, vocab, d=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, 4, batch_first=True), 2)
        self.out = nn.Linear(d, 2)

    def forward(self, ids, mask):
        h = self.enc(self.emb(ids), src_key_padding_mask=mask)
        h = (h * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True)
        return self.out(h)
