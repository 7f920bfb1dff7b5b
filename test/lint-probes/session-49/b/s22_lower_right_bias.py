import torch
import torch.nn.functional as F
from torch.nn.attention.bias import causal_lower_right


def decode_step(q, k_new, v_new, cache_k, cache_v):
    k = torch.cat([cache_k, k_new], dim=2)
    v = torch.cat([cache_v, v_new], dim=2)
    L, S = q.size(2), k.size(2)
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=causal_lower_right(L, S))
    return out, k, v
