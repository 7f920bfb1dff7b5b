import torch
import torch.nn.functional as F


def causal_scores(q, k):
    T = q.size(-2)
    rows = torch.arange(T, device=q.device).view(-1, 1)
    cols = torch.arange(T, device=q.device).view(1, -1)
    future = cols > rows
    s = q @ k.transpose(-1, -2) * q.size(-1) ** -0.5
    return s.masked_fill(future, float("-inf")).softmax(-1)


def causal_sdpa(q, k, v):
    T = q.size(-2)
    allowed = torch.arange(T, device=q.device).reshape(-1, 1) >= torch.arange(T, device=q.device).reshape(1, -1)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
