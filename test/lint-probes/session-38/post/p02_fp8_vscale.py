import torch


def fp8_attention(q, k_fp8, v_fp8, k_scale, v_scale, sm_scale):
    # q: (B, H, T, D); k_fp8, v_fp8: (B, H, S, D) stored in float8 with per-tensor scales
    k = k_fp8.to(q.dtype)
    v = v_fp8.to(q.dtype)
    s = torch.matmul(q, k.transpose(-1, -2)) * (sm_scale * k_scale)
    p = torch.softmax(s, dim=-1)
    p = p * v_scale  # dequantise the values through the weights
    return torch.matmul(p, v)
