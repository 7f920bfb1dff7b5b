import torch
import torch.nn.functional as F


def attend(q, k, v, pad_keep, causal):
    # pad_keep: (B, S) True at tokens; with causal=True the caller guarantees no padding (packed batches)
    mask = None if causal else pad_keep[:, None, None, :]
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=causal)


def run(q, k, v, ids):
    a = attend(q, k, v, ids != 0, causal=False)
    b = attend(q, k, v, ids != 0, causal=True)
    return a, b
