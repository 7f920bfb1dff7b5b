import torch


def to_key_mask(mask):
    # b t -> b 1 1 t (broadcastable to b h t s)
    return mask.unsqueeze(1).unsqueeze(1)


def padding_mask(x, pad_token):
    # x: b t token ids
    mask = torch.ones_like(x)
    return mask.masked_fill(x == pad_token, 0)


def merge(m1, m2):
    return m1 * m2
