import torch
import torch.nn.functional as F


def attend(q, k, v, key_lengths):
    # q: (B, H, L, D); k, v: (B, H, S, D); key_lengths: (B,)
    S = k.size(-2)
    pos = torch.arange(S, device=k.device)
    valid = pos[None, :] < key_lengths[:, None]  # (B, S)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=valid[:, None, None, :])
