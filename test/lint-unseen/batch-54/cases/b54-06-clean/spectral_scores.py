"""Score functions of a softmax-free 'infinite' self-attention.

The single-hop map is A = rho * Norm(ReLU(Q K^T / d)), with Norm the Frobenius
normalisation, so that ||A||_F < 1 and the series rho A + rho^2 A^2 + ... formed by
stacking layers converges. Note the 1 / d (not 1 / sqrt(d)): q and k are each
multiplied by sqrt(1 / d).
"""
import math

import torch
import torch.nn.functional as F


def single_hop_map(q, k, rho=0.95, eps=1e-6):
    d = q.shape[-1]
    s = math.sqrt(1.0 / d)
    a = torch.relu((q * s) @ (k * s).transpose(-2, -1))  # (..., N, S)
    flat = a.flatten(-2)
    flat = flat / (flat.norm(p=2, dim=-1, keepdim=True) + eps)
    return rho * flat.view(a.shape)


def pooled_importance(q, k, rho=0.95, eps=1e-6):
    """Linear-time variant: one energy-weighted query against all keys, O(N d)."""
    d = q.shape[-1]
    s = math.sqrt(1.0 / d)
    qs, ks = q * s, k * s
    energy = torch.relu(qs.norm(p=2, dim=-1))
    w = energy / (energy.sum(dim=-1, keepdim=True) + eps)
    q_bar = torch.einsum("...n,...nd->...d", w, qs)
    imp = torch.relu(torch.einsum("...d,...nd->...n", q_bar, ks))
    imp = imp / (imp.sum(dim=-1, keepdim=True) + eps)
    return (rho * imp).unsqueeze(-1)  # (..., N, 1)


def infinite_attention(q, k, v, variant="single_hop", rho=0.95, p_drop=0.0, training=False):
    if variant == "single_hop":
        a = single_hop_map(q, k, rho)
        if training and p_drop > 0:
            a = F.dropout(a, p=p_drop)
        return a @ v
    w = pooled_importance(q, k, rho)
    if training and p_drop > 0:
        w = F.dropout(w, p=p_drop)
    pooled = (w * v).sum(dim=-2, keepdim=True)
    return pooled.expand_as(v)
