import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from m21_collate import collate


class Model(nn.Module):
    def __init__(self, d=128, h=4):
        super().__init__()
        self.emb = nn.Embedding(1000, d)
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, h, batch_first=True), 2)

    def forward(self, ids, mask):
        return self.enc(self.emb(ids), src_key_padding_mask=mask)


def train(ds):
    model = Model()
    for batch in DataLoader(ds, batch_size=8, collate_fn=collate):
        out = model(batch["ids"], batch["mask"])
        out.mean().backward()
