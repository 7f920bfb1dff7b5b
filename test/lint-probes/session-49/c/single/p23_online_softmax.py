import math
import torch


def blockwise_causal_attention(q, k, v, block=64):
    """Reference for a tiled kernel: online softmax over key blocks, causal. q, k, v: (B, H, T, d)."""
    B, H, T, d = q.shape
    scale = 1.0 / math.sqrt(d)
    out = torch.zeros_like(q)
    for qs in range(0, T, block):
        qb = q[:, :, qs:qs + block] * scale
        nq = qb.shape[2]
        m_i = torch.full((B, H, nq, 1), float("-inf"), device=q.device, dtype=torch.float32)
        l_i = torch.zeros((B, H, nq, 1), device=q.device, dtype=torch.float32)
        acc = torch.zeros((B, H, nq, d), device=q.device, dtype=torch.float32)
        for ks in range(0, qs + nq, block):
            kb, vb = k[:, :, ks:ks + block], v[:, :, ks:ks + block]
            s = (qb @ kb.transpose(-2, -1)).float()
            qi = torch.arange(qs, qs + nq, device=q.device)[:, None]
            kj = torch.arange(ks, ks + kb.shape[2], device=q.device)[None, :]
            s = s.masked_fill(kj > qi, float("-inf"))
            m_new = torch.maximum(m_i, s.amax(-1, keepdim=True))
            p = torch.exp(s - m_new)
            alpha = torch.exp(m_i - m_new)
            l_i = l_i * alpha + p.sum(-1, keepdim=True)
            acc = acc * alpha + p @ vb.float()
            m_i = m_new
        out[:, :, qs:qs + nq] = (acc / l_i).to(q.dtype)
    return out
