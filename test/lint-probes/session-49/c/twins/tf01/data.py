import torch
from torch.nn.utils.rnn import pad_sequence


def collate(batch, pad_id=0):
    srcs, tgts = zip(*batch)
    src = pad_sequence([torch.tensor(s) for s in srcs], padding_value=pad_id)  # (T, B): time-major
    tgt = pad_sequence([torch.tensor(t) for t in tgts], padding_value=pad_id)
    src_mask = src != pad_id  # (T, B), True at tokens
    return src, tgt, src_mask
