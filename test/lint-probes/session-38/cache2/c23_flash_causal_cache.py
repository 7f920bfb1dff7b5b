import torch
from flash_attn import flash_attn_func


def decode_step(q, k_new, v_new, k_past, v_past):
    # (B, S, H, D) layout; flash-attn's causal mask is bottom-right aligned
    k = torch.cat([k_past, k_new], dim=1)
    v = torch.cat([v_past, v_new], dim=1)
    return flash_attn_func(q, k, v, causal=True), (k, v)
