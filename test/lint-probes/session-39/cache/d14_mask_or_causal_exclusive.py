import torch
import torch.nn.functional as F


def attention(q, k, v, mask=None, causal=False):
    # exactly one of the two: an explicit mask, or SDPA's own causal mask
    if mask is not None:
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)


def lm(q, k, v):
    return attention(q, k, v, causal=True)


def encoder(q, k, v, ids):
    return attention(q, k, v, mask=(ids != 0)[:, None, None, :])
