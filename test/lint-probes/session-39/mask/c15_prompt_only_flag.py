import torch
import torch.nn.functional as F


def attention(q, k, v, layer_cache=None):
    # q, k, v: (B, H, T, D)
    past_len = 0
    if layer_cache is not None and layer_cache["k"] is not None:
        past_len = layer_cache["k"].size(2)
        k = torch.cat([layer_cache["k"], k], 2)
        v = torch.cat([layer_cache["v"], v], 2)
    if layer_cache is not None:
        layer_cache["k"], layer_cache["v"] = k, v
    is_causal = q.size(2) > 1 and past_len == 0
    return F.scaled_dot_product_attention(q, k, v, is_causal=is_causal)
