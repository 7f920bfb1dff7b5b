from torch.utils.data import DataLoader

from collate import collate
from model import Encoder


def loop(ds):
    enc = Encoder(100)
    for batch in DataLoader(ds, batch_size=4, collate_fn=collate):
        enc(batch["src"], batch["src_padding"]).sum().backward()
