import torch
import torch.nn.functional as F


def beam_step(q, k_new, v_new, cache_k, cache_v, beam_idx):
    # q, k_new, v_new: (B*beams, H, 1, D)
    cache_k = cache_k.index_select(0, beam_idx)
    cache_v = cache_v.index_select(0, beam_idx)
    cache_k = torch.cat([cache_k, k_new], dim=2)
    cache_v = torch.cat([cache_v, v_new], dim=2)
    return F.scaled_dot_product_attention(q, cache_k, cache_v), cache_k, cache_v
