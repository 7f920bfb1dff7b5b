import torch
import torch.nn.functional as F


def forward_attention(q, k, v, kv_cache, slot_mapping, is_prefill):
    # q, k, v: (B, H, T, D) of the new tokens only
    kv_cache.write(k, v, slot_mapping)
    if is_prefill:
        # the prompt: its own keys only, causal
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
    keys, values = kv_cache.read()
    return F.scaled_dot_product_attention(q, keys, values)
