import torch
import torch.nn.functional as F


def prefix_lm_attention(q, k, v, prefix_len):
    # q, k, v: (B, H, T, D); the first prefix_len tokens see each other both ways
    T = q.size(-2)
    causal = torch.ones(T, T, dtype=torch.bool, device=q.device).tril()
    prefix = torch.arange(T, device=q.device)[None, :] < prefix_len
    allowed = causal | prefix  # (T, T): True = attend
    return F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
