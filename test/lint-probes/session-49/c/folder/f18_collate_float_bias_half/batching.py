import torch


def make_batch(seqs, pad=0):
    B, T = len(seqs), max(len(s) for s in seqs)
    ids = torch.full((B, T), pad, dtype=torch.long)
    for i, s in enumerate(seqs):
        ids[i, : len(s)] = torch.tensor(s)
    keep = (ids != pad).float()
    attn_bias = (1.0 - keep)[:, None, None, :] * -1e9  # float32 here
    return ids, attn_bias
