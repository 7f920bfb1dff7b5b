import torch


def make_batch(seqs, pad=0):
    T = max(map(len, seqs))
    ids = torch.tensor([s + [pad] * (T - len(s)) for s in seqs])
    return ids, ids.ne(pad)
