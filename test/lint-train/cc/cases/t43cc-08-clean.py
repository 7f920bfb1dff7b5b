# case: t43cc-08-clean
# modelled-on: kelomina/OrthoAttn https://github.com/kelomina/OrthoAttn/commit/d0218c4d23ca4a7cd72e66ed9b81d4c456eaac5f
# label: correct
# class: clean
# pattern: legacy mask helpers kept for old callers of a chunked attention layer: `alibi_bias(q_len, k_len)` returns the ALiBi bias `(k_idx - q_idx) * slope` and, when causal, fills `k_idx > q_idx` with -inf; `chunk_causal_bias(q_len, k_len, prefix_len)` returns zeros filled with -inf where `k_idx > prefix_len + q_idx`; both are additive float masks shaped to broadcast over (B, H, Q, K); a rotary helper sits beside them
# why: correct: in both helpers the -inf goes exactly where a key comes after the query (after the query's absolute position, which is shifted by the cached prefix in the chunked one), and the kept side is 0 or the ALiBi distance penalty, which is negative for past keys (k - q < 0) and 0 on the diagonal, so nearer keys are favoured; the diagonal is never filled, so no row is all -inf; these are additive biases, not boolean masks
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/kelomina/OrthoAttn https://github.com/kelomina/OrthoAttn/commit/d0218c4d23ca4a7cd72e66ed9b81d4c456eaac5f src/dsra/dsra_layer.py
from typing import Optional

import torch


def rotate_every_two(x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    dim = x.shape[-1]
    exponent = torch.arange(0, dim, 2, dtype=torch.float32, device=x.device)
    freqs = torch.exp(exponent * -(torch.log(torch.tensor(10000.0, device=x.device)) / dim))
    angles = positions.unsqueeze(-1).float() * freqs
    sin, cos = torch.sin(angles), torch.cos(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.zeros_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out


def alibi_bias(
    q_len: int,
    k_len: int,
    is_causal: bool = True,
    device: Optional[torch.device] = None,
    dtype: Optional[torch.dtype] = None,
) -> torch.Tensor:
    """ALiBi bias of shape [1, 1, Q, K] for callers using pe_mode='alibi'."""
    slope = 0.125
    q_idx = torch.arange(q_len, device=device).unsqueeze(1)
    k_idx = torch.arange(k_len, device=device).unsqueeze(0)
    bias = (k_idx - q_idx).to(dtype or torch.float32) * slope
    if is_causal:
        bias = bias.masked_fill(k_idx > q_idx, float("-inf"))
    return bias.unsqueeze(0).unsqueeze(0)


def chunk_causal_bias(
    q_len: int,
    k_len: int,
    prefix_len: int = 0,
    device: Optional[torch.device] = None,
    dtype: Optional[torch.dtype] = None,
) -> torch.Tensor:
    """Causal bias for a chunk whose keys are [prefix | chunk]; shape [1, Q, K]."""
    q_idx = torch.arange(q_len, device=device).unsqueeze(1)
    k_idx = torch.arange(k_len, device=device).unsqueeze(0)
    allowed = prefix_len + q_idx
    bias = torch.zeros(q_len, k_len, device=device, dtype=dtype or torch.float32)
    bias = bias.masked_fill(k_idx > allowed, float("-inf"))
    return bias.unsqueeze(0)
