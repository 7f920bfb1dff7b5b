import torch

PAD_IDX = 1


def padding_mask(tokens):
    # (batch, 1, seq): True on the real tokens
    return (tokens != PAD_IDX).unsqueeze(-2)


def target_mask(tokens):
    # (batch, seq, seq): real tokens and no look-ahead
    keep = padding_mask(tokens)
    n = tokens.size(-1)
    no_peek = (torch.triu(torch.ones((n, n)) == 1)).transpose(0, 1).unsqueeze(0)
    return keep & no_peek.type_as(keep.data)
