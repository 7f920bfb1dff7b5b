from torch.utils.data import DataLoader

from data import collate
from model import Encoder


def train(dataset, vocab):
    model = Encoder(vocab)
    for ids, pad_mask in DataLoader(dataset, batch_size=16, collate_fn=collate):
        loss = model(ids, pad_mask).pow(2).mean()
        loss.backward()
