import torch
import torch.nn.functional as F
from torch.nn.attention.bias import causal_lower_right


def chunk_attention(q, k, v, past_k, past_v):
    # a chunk of L queries after P cached tokens
    k = torch.cat([past_k, k], dim=-2)
    v = torch.cat([past_v, v], dim=-2)
    bias = causal_lower_right(q.size(-2), k.size(-2))
    return F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
