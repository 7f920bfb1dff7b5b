import math
import torch


def sparse_topk_attention(q, k, v, topk=8):
    # q, k, v: (B, H, T, d); keep only the top-k weights of each row, then renormalise
    w = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.size(-1)), dim=-1)
    thresh = w.topk(topk, dim=-1).values[..., -1:]
    w = w * (w >= thresh)
    w = torch.div(w, w.sum(dim=-1).unsqueeze(-1) + 1e-9)
    return w @ v
