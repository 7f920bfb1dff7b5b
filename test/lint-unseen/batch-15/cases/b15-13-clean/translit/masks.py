import numpy as np
import torch

NEG_INFTY = -1e9


def build_masks(src_batch, tgt_batch, max_len):
    """Additive masks (0 = visible, -1e9 = hidden), one (max_len, max_len) matrix per sentence pair."""
    n = len(src_batch)
    look_ahead = torch.triu(torch.full([max_len, max_len], True), diagonal=1)  # True above the diagonal: the future
    enc_pad = torch.full([n, max_len, max_len], False)
    dec_pad_self = torch.full([n, max_len, max_len], False)
    dec_pad_cross = torch.full([n, max_len, max_len], False)

    for i in range(n):
        src_len, tgt_len = len(src_batch[i]), len(tgt_batch[i])
        src_pad = np.arange(src_len + 1, max_len)
        tgt_pad = np.arange(tgt_len + 1, max_len)
        enc_pad[i, :, src_pad] = True
        enc_pad[i, src_pad, :] = True
        dec_pad_self[i, :, tgt_pad] = True
        dec_pad_self[i, tgt_pad, :] = True
        dec_pad_cross[i, :, src_pad] = True
        dec_pad_cross[i, tgt_pad, :] = True

    enc_self = torch.where(enc_pad, NEG_INFTY, 0)
    dec_self = torch.where(look_ahead + dec_pad_self, NEG_INFTY, 0)
    dec_cross = torch.where(dec_pad_cross, NEG_INFTY, 0)
    return enc_self, dec_self, dec_cross
