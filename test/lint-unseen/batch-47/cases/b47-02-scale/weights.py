"""exp-weight helpers of the sparse research attention (after the fix)."""
import torch


def repeat_heads(t: torch.Tensor, groups: int) -> torch.Tensor:
    """(b, h_kv, s, d) -> (b, h_kv * groups, s, d)"""
    return t if groups == 1 else torch.repeat_interleave(t, groups, dim=1)


def group_count(q: torch.Tensor, kv: torch.Tensor) -> int:
    return q.size(1) // kv.size(1)


def weighted_row_sum(x: torch.Tensor, pattern) -> torch.Tensor:
    if pattern.is_full():
        return torch.sum(x, dim=-1, keepdim=True)
    if pattern.is_empty():
        return torch.zeros(*x.shape[:-1], 1, dtype=x.dtype, device=x.device)
    return torch.sum(x * pattern.dense_weights(), dim=-1, keepdim=True)


def attend(module, q, k, v, attention_mask, scaling, pattern):
    k_all = repeat_heads(k, group_count(q, k))
    v_all = repeat_heads(v, group_count(q, v))
    s = torch.matmul(q, k_all.transpose(2, 3)) * scaling
    if attention_mask is not None:
        s = s + attention_mask[..., : k_all.size(-2)]
    e = torch.exp(s - s.max(dim=-1, keepdim=True).values)
    if not pattern.is_empty():
        e = e * pattern.dense_weights()
    out = (e @ v_all) / e.sum(dim=-1, keepdim=True)
    return out.transpose(1, 2).contiguous()
