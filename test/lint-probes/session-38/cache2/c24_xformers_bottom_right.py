import torch
import xformers.ops as xops


def attend(q, k_new, v_new, k_past, v_past):
    # (B, M, H, K)
    k = torch.cat([k_past, k_new], dim=1)
    v = torch.cat([v_past, v_new], dim=1)
    bias = xops.fmha.attn_bias.LowerTriangularFromBottomRightMask()
    return xops.memory_efficient_attention(q, k, v, attn_bias=bias)
