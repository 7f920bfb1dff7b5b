"""Dense reference pieces shared by the sparse attention path: exp-weights, masked sums, the output."""
from typing import Optional

import torch
from torch import nn


def kv_groups(queries: torch.Tensor, keys: torch.Tensor) -> int:
    return queries.shape[1] // keys.shape[1]


def expand_kv(x: torch.Tensor, n_rep: int) -> torch.Tensor:
    if n_rep == 1:
        return x
    b, h_kv, s, d = x.shape
    return x[:, :, None].expand(b, h_kv, n_rep, s, d).reshape(b, h_kv * n_rep, s, d)


def masked_row_sum(values: torch.Tensor, pattern) -> torch.Tensor:
    """Sum of values over the keys a sparse pattern keeps, each weighted by 1 / its sampling probability."""
    if pattern.is_full():
        return values.sum(dim=-1, keepdim=True)
    if pattern.is_empty():
        return values.new_zeros(values.shape[:-1] + (1,))
    dense = pattern.dense_weights()
    return (values * dense).sum(dim=-1, keepdim=True)


def _exp_logits(q, k, attention_mask: Optional[torch.Tensor], scaling: float, pattern) -> torch.Tensor:
    k = expand_kv(k, kv_groups(q, k))
    logits = torch.matmul(q, k.transpose(2, 3)) * scaling
    if attention_mask is not None:
        logits = logits + attention_mask[:, :, :, : k.shape[-2]]
    logits = logits - logits.amax(dim=-1, keepdim=True)
    weights = torch.exp(logits)
    if not pattern.is_empty():
        weights = weights * pattern.dense_weights()
    return weights


def sparse_attention_output(
    module: nn.Module,
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    attention_mask: Optional[torch.Tensor],
    scaling: float,
    pattern,
) -> torch.Tensor:
    """numerator / denominator over the kept keys; the same exp-weights feed both."""
    weights = _exp_logits(q, k, attention_mask, scaling, pattern)
    v = expand_kv(v, kv_groups(q, v))
    num = torch.matmul(weights, v)
    den = weights.sum(dim=-1, keepdim=True)
    return (num / den).transpose(1, 2).contiguous()
