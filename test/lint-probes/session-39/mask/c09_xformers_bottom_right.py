import torch
import xformers.ops as xops
from xformers.ops.fmha.attn_bias import LowerTriangularFromBottomRightMask


def attend(q, k, v, past=None):
    # q, k, v: (B, T, H, D)
    if past is not None:
        k = torch.cat([past[0], k], dim=1)
        v = torch.cat([past[1], v], dim=1)
    out = xops.memory_efficient_attention(q, k, v, attn_bias=LowerTriangularFromBottomRightMask())
    return out, (k, v)
