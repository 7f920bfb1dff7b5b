import torch
from torch.utils.data import DataLoader
from data import collate
from model import Seq2Seq


def train(dataset, vocab):
    model = Seq2Seq(vocab, 256)
    loader = DataLoader(dataset, batch_size=32, collate_fn=collate)
    for src, tgt, src_mask in loader:
        h = torch.zeros(src.shape[1], 256)
        logits = model(src, src_mask, h)
