import torch
from torch.nn.utils.rnn import pad_sequence

from .mask import padding_mask


def collate(batch, pad_num):
    src, tgt, label = list(zip(*batch))
    enc_x = pad_sequence([torch.tensor(t) for t in src], batch_first=True, padding_value=pad_num)
    dec_x = pad_sequence([torch.tensor(t) for t in tgt], batch_first=True, padding_value=pad_num)
    label = pad_sequence([torch.tensor(t) for t in label], batch_first=True, padding_value=pad_num)
    return enc_x, dec_x, label, padding_mask(enc_x, pad_token=pad_num), padding_mask(dec_x, pad_token=pad_num)
