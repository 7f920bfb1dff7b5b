import torch
import torch.nn.functional as F


def prefix_lm_mask(prefix_len, total_len, device):
    causal = torch.tril(torch.ones(total_len, total_len, dtype=torch.bool, device=device))
    causal[:, :prefix_len] = True  # bidirectional over the prefix
    return causal


def prefix_attention(q, k, v, prefix_len):
    # q, k, v: (B, H, L, D), no cache: the whole sequence at once
    L = q.shape[-2]
    mask = prefix_lm_mask(prefix_len, L, q.device)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
