# case: b62-03-clean
# modelled-on: soeunida/CARE-KV-Sparse-Residual-Correction-for-Low-Bit-KV-Cache-Quantization https://github.com/soeunida/CARE-KV-Sparse-Residual-Correction-for-Low-Bit-KV-Cache-Quantization/commit/2b1018417673d02eab589687ebc702a89bb8232b
# label: correct
# class: clean
# pattern: the prefill path of a research layer that quantises a Llama model's KV cache (a folder: `hooks.py` is the patched decoder-layer forward that hands this layer the host model's 4-D additive float mask, or None when the host gives none); base attention is computed by hand on the dequantised keys and values: per-head `einsum("hid,hjd->hij") / sqrt(D)`, then either the host's additive mask is added or, without one, a causal bias `triu(full((T, T), finfo(dtype).min), diagonal=1)` is added, softmax in float32 over the last axis; an optional token-eviction step re-masks evicted key columns with -inf on the pre-softmax scores, re-runs the softmax and zeroes NaN rows
# why: correct: the host's mask is already additive (0 where attended, the dtype's minimum elsewhere), so adding it is its contract; the fallback bias puts finfo.min strictly above the diagonal, the usual causal mask for a prefill where queries and keys are the same T tokens (no cache yet: the decode path is separate); eviction masks keys on the logits and renormalises with a fresh softmax, so the weights still sum to one; sinks and the recent window are always kept, so no row is fully masked in practice and nan_to_num only guards the degenerate case
# looks-like: ATT002, ATT006, ATT007, ATT008
# source: https://github.com/soeunida/CARE-KV-Sparse-Residual-Correction-for-Low-Bit-KV-Cache-Quantization https://github.com/soeunida/CARE-KV-Sparse-Residual-Correction-for-Low-Bit-KV-Cache-Quantization/commit/2b1018417673d02eab589687ebc702a89bb8232b layer.py
import math
import os
from typing import Optional, Tuple

import torch
from torch import Tensor


def causal_base_attention(q: Tensor, k: Tensor, v: Tensor, host_mask: Optional[Tensor]) -> Tuple[Tensor, Tensor, Tensor]:
    """q, k, v: (H, T, D). Returns output (H, T, D), weights (H, T, T), logits (H, T, T)."""
    n_heads, t, d = q.shape
    logits = torch.einsum("hid,hjd->hij", q, k) / math.sqrt(d)
    if host_mask is not None:
        bias = host_mask
        while bias.dim() > 2:
            bias = bias.squeeze(0)
        logits = logits + bias.to(device=logits.device, dtype=logits.dtype).unsqueeze(0)
    else:
        floor = torch.finfo(logits.dtype).min
        upper = torch.triu(torch.full((t, t), floor, device=logits.device, dtype=logits.dtype), diagonal=1)
        logits = logits + upper.unsqueeze(0)
    weights = torch.softmax(logits, dim=-1, dtype=torch.float32).to(q.dtype)
    out = torch.einsum("hij,hjd->hid", weights, v)
    return out, weights, logits


def evict_tokens(out: Tensor, weights: Tensor, logits: Tensor, v: Tensor) -> Tuple[Tensor, Tensor, Tensor]:
    """Heavy-hitter eviction: keep sinks, a recent window and the most-attended keys; mask the rest."""
    keep_ratio = float(os.environ.get("KVQ_EVICT_KEEP", "1.0"))
    if not 0.0 < keep_ratio < 1.0:
        return out, weights, logits
    _, _, n = weights.shape
    keep = torch.zeros(n, dtype=torch.bool, device=weights.device)
    keep[: min(4, n)] = True
    keep[max(0, n - max(1, n // 10)) :] = True
    budget = max(1, round(keep_ratio * n)) - int(keep.sum())
    if budget > 0:
        received = weights.float().sum(dim=(0, 1))
        received[keep] = float("-inf")
        free = int((~keep).sum())
        if free > 0:
            keep[torch.topk(received, min(budget, free)).indices] = True
    if bool(keep.all()):
        return out, weights, logits
    masked = logits.masked_fill((~keep).view(1, 1, n), float("-inf"))
    new_weights = torch.nan_to_num(torch.softmax(masked, dim=-1), nan=0.0)
    new_out = torch.einsum("htn,hnd->htd", new_weights.to(v.dtype), v)
    return new_out, new_weights, masked


def prefill(q_rot: Tensor, k_hat: Tensor, v_hat: Tensor, host_mask: Optional[Tensor], kv_group: int, w_o: Tensor) -> Tensor:
    """q_rot: (Hq, T, D); k_hat, v_hat: (Hkv, T, D) dequantised cache rows for the prompt."""
    n_q, t, d = q_rot.shape
    if kv_group > 1:
        k_hat = k_hat.repeat_interleave(kv_group, dim=0)
        v_hat = v_hat.repeat_interleave(kv_group, dim=0)
    out, weights, logits = causal_base_attention(q_rot, k_hat, v_hat, host_mask)
    out, weights, logits = evict_tokens(out, weights, logits, v_hat)
    return out.transpose(0, 1).reshape(t, n_q * d) @ w_o.T
