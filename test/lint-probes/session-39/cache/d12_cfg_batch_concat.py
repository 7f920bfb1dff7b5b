import torch
import torch.nn.functional as F


def guided_attention(q_cond, k_cond, v_cond, q_uncond, k_uncond, v_uncond):
    # classifier-free guidance: the conditional and unconditional streams share one batch (dim 0)
    q = torch.cat([q_uncond, q_cond], dim=0)
    k = torch.cat([k_uncond, k_cond], dim=0)
    v = torch.cat([v_uncond, v_cond], dim=0)
    out = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # (2B, H, T, D)
    return out.chunk(2, dim=0)
