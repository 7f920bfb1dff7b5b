import torch


def length_mask(lens):
    """(bs,) lengths -> (bs, 1, max_len) bool, True on the real tokens."""
    bs, max_len = len(lens), max(lens)
    m = torch.zeros(bs, 1, max_len)
    for i, n in enumerate(lens):
        m[i, :, :n] = 1
    return m > 0


def no_peek_mask(lens):
    """(bs,) lengths -> (bs, max_len, max_len) bool, True where a position may see another."""
    bs, max_len = len(lens), max(lens)
    m = torch.ones([bs, max_len, max_len]).tril_(0)
    return m > 0
