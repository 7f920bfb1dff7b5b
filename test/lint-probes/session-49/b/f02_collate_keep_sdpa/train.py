import torch
from torch.utils.data import DataLoader

from data import collate_fn
from model import Block


def main(ds):
    emb = torch.nn.Embedding(1000, 64)
    block = Block(64, 4)
    for batch in DataLoader(ds, batch_size=8, collate_fn=collate_fn):
        y = block(emb(batch["input_ids"]), batch["attention_mask"])
        y.sum().backward()
