"""Batches for the toy translation model: token ids padded to the longest sentence, and a padding mask.

The bug the linter finds across files starts here: `collate` returns a mask that is True at the *real*
tokens, and model.py hands it to nn.MultiheadAttention's key_padding_mask, which expects True at *padding*
(ATT002, reported in model.py, with this line as its related location).
"""

import torch
from torch.nn.utils.rnn import pad_sequence

PAD_ID = 0


def collate(batch):
    # batch: list of {"ids": (S_i,) long tensor}; S_i varies
    ids = pad_sequence([item["ids"] for item in batch], batch_first=True, padding_value=PAD_ID)  # (B, S)
    mask = ids != PAD_ID  # (B, S), True at real tokens
    # Fixed: mask = ids == PAD_ID  (True at padding, as key_padding_mask wants)
    return ids, mask


def toy_dataset(n=64, vocab=1000):
    lengths = torch.randint(3, 20, (n,))
    return [{"ids": torch.randint(1, vocab, (int(s),))} for s in lengths]
