import torch
import torch.nn.functional as F


def mqa_step(q, k, v, cache, start):
    # q: (B, H, L, D); k, v: (B, 1, L, D), one shared key head
    cache["k"][:, :, start : start + k.size(2)] = k
    cache["v"][:, :, start : start + v.size(2)] = v
    S = start + k.size(2)
    keys = cache["k"][:, :, :S].expand(-1, q.size(1), -1, -1)
    vals = cache["v"][:, :, :S].expand(-1, q.size(1), -1, -1)
    L = q.size(2)
    mask = torch.ones(L, S, dtype=torch.bool, device=q.device).tril(diagonal=start)
    return F.scaled_dot_product_attention(q, keys, vals, attn_mask=mask)
