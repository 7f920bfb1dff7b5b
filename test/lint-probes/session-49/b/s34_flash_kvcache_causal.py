import torch
from flash_attn import flash_attn_with_kvcache


def decode(q, k_new, v_new, k_cache, v_cache, cache_seqlens):
    return flash_attn_with_kvcache(
        q, k_cache, v_cache, k=k_new, v=v_new, cache_seqlens=cache_seqlens, causal=True
    )
