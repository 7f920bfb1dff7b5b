import torch
import torch.nn.functional as F


def local_attention(q, k, v, window=64):
    T = q.size(-2)
    i = torch.arange(T, device=q.device)
    rel = i[:, None] - i[None, :]
    keep = (rel >= 0) & (rel < window)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
