import torch
from flash_attn import flash_attn_with_kvcache


def decode_step(q, k_new, v_new, k_cache, v_cache, cache_seqlens):
    # q, k_new, v_new: (B, L, H, D); caches: (B, S_max, H, D)
    # flash-attn aligns its causal mask to the bottom right of the (L, S) block
    return flash_attn_with_kvcache(q, k_cache, v_cache, k=k_new, v=v_new, cache_seqlens=cache_seqlens, causal=True)
