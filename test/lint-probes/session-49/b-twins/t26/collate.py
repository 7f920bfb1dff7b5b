import torch
from torch.nn.utils.rnn import pad_sequence


def collate(items, pad_id=0):
    src = pad_sequence([torch.tensor(i["src"]) for i in items], batch_first=True, padding_value=pad_id)
    return {"src": src, "src_padding": src.eq(pad_id)}
