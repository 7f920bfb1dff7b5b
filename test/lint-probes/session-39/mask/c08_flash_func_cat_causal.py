import torch
from flash_attn import flash_attn_func


def attend(q, k, v, past=None):
    # q, k, v: (B, T, H, D), flash-attn layout; causal=True is bottom-right aligned since flash-attn 2.1
    if past is not None:
        k = torch.cat([past[0], k], dim=1)
        v = torch.cat([past[1], v], dim=1)
    return flash_attn_func(q, k, v, causal=True), (k, v)
