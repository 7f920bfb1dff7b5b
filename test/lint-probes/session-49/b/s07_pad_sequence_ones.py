import torch
from torch.nn.utils.rnn import pad_sequence


def batch_mask(seqs):
    ones = [torch.ones(len(s), dtype=torch.bool) for s in seqs]
    return pad_sequence(ones, batch_first=True)  # True over each sequence


def attention(q, k, v, seqs):
    keep = batch_mask(seqs)
    scores = torch.einsum("bhqd,bhkd->bhqk", q, k) * q.size(-1) ** -0.5
    scores = scores.masked_fill(~keep[:, None, None, :], float("-inf"))
    return torch.einsum("bhqk,bhkd->bhqd", scores.softmax(-1), v)
