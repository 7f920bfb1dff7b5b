import math

import torch

from heads import group_by_kv_head


def eviction_bias(q_all, k_all, query_heads, positions, seq_len, budget, strategy="recency", n_sink=4):
    """Additive bias (0 = key kept in the compressed cache, -inf = evicted or in the future), (heads, positions, seq_len).

    q_all: (n_query_heads, seq_len, d) and k_all: (n_kv_heads, seq_len, d), both after RoPE.
    """
    device = q_all.device
    keep_n = max(1, int(seq_len * budget))
    bias = torch.zeros(len(query_heads), len(positions), seq_len, device=device)

    if strategy == "recency":
        for i, pos in enumerate(positions):
            seen = pos + 1
            if seen > keep_n:
                bias[:, i, : seen - keep_n] = float("-inf")
    elif strategy == "sink":
        recent = max(keep_n - n_sink, 0)
        for i, pos in enumerate(positions):
            seen = pos + 1
            kept = torch.zeros(seen, dtype=torch.bool, device=device)
            kept[: min(n_sink, seen)] = True
            if recent > 0:
                kept[max(0, seen - recent) : seen] = True
            bias[:, i, :seen][:, ~kept] = float("-inf")
    elif strategy == "topk":
        scale = math.sqrt(q_all.shape[-1])
        for kv, rows, qhs in group_by_kv_head(query_heads, q_all.shape[0], k_all.shape[0]):
            logits = torch.matmul(q_all[qhs], k_all[kv].transpose(-1, -2)) / scale
            pooled = logits.mean(dim=0)  # (seq_len, seq_len), averaged over the group's query heads
            for i, pos in enumerate(positions):
                seen = pos + 1
                if seen <= keep_n:
                    continue
                top = torch.topk(pooled[pos, :seen], k=keep_n).indices
                dropped = torch.ones(seen, dtype=torch.bool, device=device)
                dropped[top] = False
                for r in rows:
                    bias[r, i, :seen][dropped] = float("-inf")
    else:
        raise ValueError(f"unknown strategy {strategy!r}")

    # every strategy: a position never sees the keys after it
    for i, pos in enumerate(positions):
        bias[:, i, pos + 1 :] = float("-inf")
    return bias
