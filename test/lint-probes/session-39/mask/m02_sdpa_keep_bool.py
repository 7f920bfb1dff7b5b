import torch
import torch.nn.functional as F


def attend(q, k, v, tokens, pad_id):
    # q, k, v: (B, H, S, D); tokens: (B, S)
    keep = tokens != pad_id  # (B, S) True = real token
    attn_mask = keep[:, None, None, :]  # (B, 1, 1, S), SDPA: True = may attend
    return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
