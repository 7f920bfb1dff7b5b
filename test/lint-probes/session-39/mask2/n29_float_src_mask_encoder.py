import torch
import torch.nn as nn


def square_subsequent_mask(sz):
    mask = (torch.triu(torch.ones(sz, sz)) == 1).transpose(0, 1)
    return mask.float().masked_fill(mask == 0, float("-inf")).masked_fill(mask == 1, float(0.0))


class LM(nn.Module):
    def __init__(self, ntoken, d=200):
        super().__init__()
        self.emb = nn.Embedding(ntoken, d)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, 2), 2)

    def forward(self, src):  # src: (T, B)
        return self.encoder(self.emb(src), mask=square_subsequent_mask(src.size(0)))
