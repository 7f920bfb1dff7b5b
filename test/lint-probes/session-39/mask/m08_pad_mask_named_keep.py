import torch


def attention(q, k, v, ids, pad_idx=1):
    # q, k, v: (B, T, D); ids: (B, T)
    pad_mask = (ids != pad_idx).unsqueeze(1)  # (B, 1, T): 1 where the key is a real token
    scores = torch.bmm(q, k.transpose(1, 2)) / (q.size(-1) ** 0.5)  # (B, T, T)
    scores = scores.masked_fill(pad_mask == 0, -1e9)
    return torch.bmm(torch.softmax(scores, dim=-1), v)
