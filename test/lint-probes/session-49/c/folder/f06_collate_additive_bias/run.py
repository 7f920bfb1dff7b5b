from torch.utils.data import DataLoader
from collate import pad_batch
from encoder import Encoder


def run(ds):
    enc = Encoder(30000)
    for batch in DataLoader(ds, batch_size=16, collate_fn=pad_batch):
        h = enc(batch["input_ids"], batch["key_bias"])
