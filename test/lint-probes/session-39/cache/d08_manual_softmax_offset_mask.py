import math
import torch


def cached_attention(q, k, v, past_k, past_v):
    k = torch.cat([past_k, k], 2)
    v = torch.cat([past_v, v], 2)
    L, S = q.size(2), k.size(2)
    s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    future = torch.triu(torch.ones(L, S, dtype=torch.bool, device=q.device), diagonal=S - L + 1)
    s = s.masked_fill(future, float("-inf"))
    return s.softmax(-1) @ v, (k, v)
