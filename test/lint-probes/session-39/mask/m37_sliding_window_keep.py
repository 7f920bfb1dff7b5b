import torch
import torch.nn.functional as F


def local_attention(q, k, v, window):
    # q, k, v: (B, H, T, D)
    T = q.size(-2)
    i = torch.arange(T, device=q.device)[:, None]
    j = torch.arange(T, device=q.device)[None, :]
    allowed = (j <= i) & (i - j < window)  # (T, T) causal band
    return F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
