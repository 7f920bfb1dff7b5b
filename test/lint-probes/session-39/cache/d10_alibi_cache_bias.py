import torch
import torch.nn.functional as F


def alibi_cached(q, k, v, past_k, past_v, slopes):
    # q: (B, H, 1, D) one new token; ALiBi bias against every cached key
    k = torch.cat([past_k, k], 2)
    v = torch.cat([past_v, v], 2)
    S = k.size(2)
    dist = torch.arange(S, device=q.device) - (S - 1)  # 0 for the newest key, negative for older ones
    bias = slopes[None, :, None, None] * dist[None, None, None, :]
    return F.scaled_dot_product_attention(q, k, v, attn_mask=bias), (k, v)
