import torch
import torch.nn.functional as F


def layer(q, k, v, past=None, pad_keep=None):
    # q, k, v: (B, H, L, D); pad_keep: (B, S) True at real cached+new tokens
    if past is not None:
        k = torch.cat([past[0], k], 2)
        v = torch.cat([past[1], v], 2)
    L, S = q.size(2), k.size(2)
    causal = torch.ones(L, S, dtype=torch.bool, device=q.device).tril(S - L)
    mask = causal if pad_keep is None else causal & pad_keep[:, None, None, :]
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=False), (k, v)
