import torch
import torch.nn.functional as F


def attention_block(q, k, v, layer_past=None):
    # q, k, v: (B, H, T, D)
    if layer_past is not None:
        k = torch.cat([layer_past[0], k], dim=-2)
        v = torch.cat([layer_past[1], v], dim=-2)
    out = F.scaled_dot_product_attention(q, k, v, is_causal=layer_past is None)
    return out, (k, v)
