from torch.utils.data import DataLoader
from dataset import collate_fn
from listener import Listener


def train(ds):
    net = Listener(80, 256)
    for x, lengths in DataLoader(ds, batch_size=8, collate_fn=collate_fn):
        pooled = net(x, lengths)
