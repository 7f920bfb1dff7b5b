import torch
import torch.nn.functional as F


def cached_attention(q, k, v, cache):
    # q, k, v: (B, H, T, D); cache: dict with "k", "v" or empty
    if cache:
        assert q.size(2) == 1, "decode one token at a time"
        k = torch.cat([cache["k"], k], 2)
        v = torch.cat([cache["v"], v], 2)
        out = F.scaled_dot_product_attention(q, k, v)
    else:
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    cache["k"], cache["v"] = k, v
    return out
