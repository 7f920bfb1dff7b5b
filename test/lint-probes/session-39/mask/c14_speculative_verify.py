import torch
import torch.nn.functional as F


def verify_draft(q, k, v, cache_k, cache_v):
    # q, k, v: (B, H, G, D) for G drafted tokens; the cache holds the accepted prefix
    keys = torch.cat([cache_k, k], dim=2)
    values = torch.cat([cache_v, v], dim=2)
    G, S = q.size(2), keys.size(2)
    offset = S - G
    mask = torch.tril(torch.ones(G, S, dtype=torch.bool, device=q.device), diagonal=offset)
    return F.scaled_dot_product_attention(q, keys, values, attn_mask=mask)
