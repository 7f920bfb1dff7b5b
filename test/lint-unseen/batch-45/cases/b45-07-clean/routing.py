# case: b45-07-clean
# modelled-on: Kevin-lkw/interattn https://github.com/Kevin-lkw/interattn/commit/3ed70bf3b101c6f77631166cecb4c2a0ab6d400a
# label: correct
# class: clean
# pattern: an analysis script for KV-cache eviction in a grouped-query Llama (a folder: the query-to-KV-head grouping helper, the module that builds an additive eviction bias per strategy, 0 for kept keys and -inf for evicted and future ones, and this file, which re-routes the attention of chosen query positions over the compressed cache and also rebuilds the plain causal attention map); logits are einsum/matmul of RoPE'd queries and keys divided by `scale = math.sqrt(head_dim)`, the bias is added in float32 and the softmax runs over the last axis; the full map masks triu(ones, 1) with -inf
# why: correct: `scale` holds sqrt(d) and the logits are divided by it, i.e. multiplied by 1/sqrt(d); the bias is additive with 0 on kept keys and -inf on evicted ones, and every row keeps at least one key at or before its position (at least one kept token per row by the budget floor, and the position itself in the recency and sink strategies), so no row is all -inf; triu(..., diagonal=1) is True exactly at the future keys and is the masked_fill condition; the key transposes swap the last two axes of (heads, seq, d)
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/Kevin-lkw/interattn https://github.com/Kevin-lkw/interattn/commit/3ed70bf3b101c6f77631166cecb4c2a0ab6d400a llama/script/analysis/attention.py
import math

import torch
from torch.nn import functional as F

from budget_masks import eviction_bias
from heads import group_by_kv_head, kv_head_of


def full_causal_map(q, k):
    """q: (heads, seq, d), k: (heads, seq, d) -> pre-softmax scores and weights, both (heads, seq, seq)."""
    scores = (q @ k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
    n = scores.shape[-1]
    future = torch.triu(torch.ones(n, n, dtype=torch.bool, device=scores.device), diagonal=1)
    scores = scores.masked_fill(future.unsqueeze(0), float("-inf"))
    return scores, torch.softmax(scores, dim=-1)


def routed_weights(q_all, k_all, query_heads, positions, bias):
    """Attention of the chosen query positions over the compressed cache, (heads, positions, seq_len)."""
    pos = torch.as_tensor(positions, device=q_all.device, dtype=torch.long)
    logits = q_all.new_empty(len(query_heads), len(positions), k_all.shape[1], dtype=torch.float32)
    scale = math.sqrt(q_all.shape[-1])
    for kv, rows, qhs in group_by_kv_head(query_heads, q_all.shape[0], k_all.shape[0]):
        picked = q_all[qhs][:, pos, :].float()
        logits[rows] = torch.einsum("hqd,kd->hqk", picked, k_all[kv].float()) / scale
    if logits.shape != bias.shape:
        raise ValueError(f"logits {tuple(logits.shape)} and bias {tuple(bias.shape)} differ")
    return F.softmax(logits + bias.to(torch.float32), dim=-1)


def compare_budgets(q_all, k_all, query_heads, positions, budgets, strategy):
    seq_len = k_all.shape[1]
    kv_rows = [kv_head_of(h, q_all.shape[0], k_all.shape[0]) for h in query_heads]
    reference = full_causal_map(q_all[query_heads].float(), k_all[kv_rows].float())[1][:, positions]
    report = {}
    for budget in budgets:
        bias = eviction_bias(q_all, k_all, query_heads, positions, seq_len, budget, strategy)
        routed = routed_weights(q_all, k_all, query_heads, positions, bias)
        report[float(budget)] = (routed - reference).abs().sum(dim=-1).mean().item()
    return report
