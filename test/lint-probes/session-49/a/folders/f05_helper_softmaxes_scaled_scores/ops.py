import torch


def masked_softmax(scores, key_padding_mask=None):
    if key_padding_mask is not None:
        scores = scores.masked_fill(key_padding_mask[:, None, None, :], float("-inf"))
    return torch.softmax(scores, dim=-1)
