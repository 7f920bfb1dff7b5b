import torch
import torch.nn.functional as F


def attend_with_positions(q, k_cache, v_cache, k_new, v_new, cache_position):
    # q: (B, H, T, D); caches (B, H, S_max, D); cache_position: (T,) absolute positions of the new tokens
    k_cache[:, :, cache_position] = k_new
    v_cache[:, :, cache_position] = v_new
    S = k_cache.shape[2]
    allowed = torch.arange(S, device=q.device)[None, :] <= cache_position[:, None]  # (T, S)
    return F.scaled_dot_product_attention(q, k_cache, v_cache, attn_mask=allowed)
