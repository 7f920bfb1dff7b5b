import torch


def chunked_attention(q, k, v, chunk=128):
    # q: (B, H, T, D); k, v: (B, H, S, D)
    scale = q.shape[-1] ** -0.5
    m = torch.full(q.shape[:-1], float("-inf"), device=q.device)
    l = torch.zeros(q.shape[:-1], device=q.device)
    acc = torch.zeros_like(q)
    for s0 in range(0, k.shape[-2], chunk):
        kc, vc = k[..., s0 : s0 + chunk, :], v[..., s0 : s0 + chunk, :]
        s = q @ kc.transpose(-1, -2) * scale
        m_new = torch.maximum(m, s.amax(-1))
        alpha = torch.exp(m - m_new)
        p = torch.exp(s - m_new[..., None])
        l = l * alpha + p.sum(-1)
        acc = acc * alpha[..., None] + p @ vc
        m = m_new
    return acc / l[..., None]
