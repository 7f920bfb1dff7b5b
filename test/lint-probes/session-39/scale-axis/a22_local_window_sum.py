import torch
import torch.nn.functional as F


def neighbourhood_attention(q, k, v, w=7):
    # q, k, v: (B, N, d); each query attends to the w keys centred on it
    B, N, d = q.shape
    pad = w // 2
    kw = F.pad(k, (0, 0, pad, pad)).unfold(1, w, 1).transpose(2, 3)  # (B, N, w, d)
    vw = F.pad(v, (0, 0, pad, pad)).unfold(1, w, 1).transpose(2, 3)  # (B, N, w, d)
    s = (q.unsqueeze(2) * kw).sum(-1) / d ** 0.5  # (B, N, w)
    a = s.softmax(dim=-1)
    return (a.unsqueeze(-1) * vw).sum(2)
