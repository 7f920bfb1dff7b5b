import torch
import torch.nn.functional as F


def sliding_attention(q, k, v, q_pos, k_pos, window):
    # q: (B, H, L, D) at absolute positions q_pos (L,); k, v: (B, H, S, D) at k_pos (S,), cache included
    diff = q_pos[:, None] - k_pos[None, :]
    allowed = (diff >= 0) & (diff < window)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
