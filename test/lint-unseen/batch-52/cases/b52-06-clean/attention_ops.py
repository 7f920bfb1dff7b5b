import torch
import torch.nn.functional as F

MAX_GRID = 65536


def sdpa_bshd(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """Attention on (batch, seq, heads, dim) tensors; returns (batch, seq, heads, dim).

    Keys/values may carry fewer heads than the queries (one head for multi-query
    test rows); they are repeated to match. Very large batch * heads products are
    split into chunks to stay under the CUDA grid limit.
    """
    if q.dim() != 4 or k.dim() != 4 or v.dim() != 4:
        raise ValueError(f"expected (B, S, H, D) tensors, got {tuple(q.shape)}, {tuple(k.shape)}")
    q_h = q.permute(0, 2, 1, 3)
    k_h = k.permute(0, 2, 1, 3)
    v_h = v.permute(0, 2, 1, 3)
    n_q, n_kv = q_h.shape[1], k_h.shape[1]
    if n_q != n_kv:
        reps = n_q // n_kv
        k_h = k_h.repeat_interleave(reps, dim=1)
        v_h = v_h.repeat_interleave(reps, dim=1)

    parallel = q_h.shape[0] * q_h.shape[1]
    chunks = (parallel + MAX_GRID - 1) // MAX_GRID
    step = (q_h.shape[0] + chunks - 1) // chunks
    pieces = []
    for i in range(chunks):
        sl = slice(i * step, (i + 1) * step)
        pieces.append(
            F.scaled_dot_product_attention(
                q_h[sl].contiguous(),
                k_h[sl].contiguous(),
                v_h[sl].contiguous(),
                attn_mask=None,
            )
        )
    out = pieces[0] if len(pieces) == 1 else torch.cat(pieces)
    return out.permute(0, 2, 1, 3)
