import torch


def frame_attention(q, k, v, feats):
    # feats: (B, T, F) with all-zero rows for padded frames
    padded = feats.abs().sum(-1) == 0  # (B, T)
    s = torch.bmm(q, k.transpose(1, 2)) / q.size(-1) ** 0.5
    s = s.masked_fill(padded[:, None, :], -1e9)
    return torch.bmm(s.softmax(-1), v)
