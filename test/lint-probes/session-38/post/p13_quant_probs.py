import torch


def int8_attention(q, k, v, v_scale, p_scale=1 / 127.0):
    # q, k, v: (B, H, T, D); v is int8 with a per-head scale
    s = torch.matmul(q, k.transpose(-1, -2)) / q.shape[-1] ** 0.5
    p = torch.softmax(s, dim=-1)
    p_q = torch.round(p / p_scale).to(torch.int8)
    out = torch.matmul(p_q.float(), v.float())
    return out * (p_scale * v_scale)
