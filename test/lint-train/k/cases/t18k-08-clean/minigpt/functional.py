import math

import torch
import torch.nn.functional as F


def scaled_scores(query: torch.Tensor, key: torch.Tensor) -> torch.Tensor:
    """Q K^T / sqrt(head_dim), [B, H, Q, K]."""
    return torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(query.size(-1))


def apply_causal_mask(scores: torch.Tensor) -> torch.Tensor:
    """Causal mask that accounts for cached history: query i sits at position past + i."""
    q_len, k_len = scores.size(-2), scores.size(-1)
    if q_len <= 0 or k_len < q_len:
        raise ValueError("need at least as many keys as queries")
    past = k_len - q_len
    q_pos = torch.arange(q_len, device=scores.device) + past
    k_pos = torch.arange(k_len, device=scores.device)
    visible = k_pos.unsqueeze(0) <= q_pos.unsqueeze(1)
    return scores.masked_fill(~visible, float("-inf"))


def causal_attention(query, key, value, *, p: float = 0.0, training: bool = False):
    scores = apply_causal_mask(scaled_scores(query, key))
    weights = torch.softmax(scores, dim=-1)
    return torch.matmul(F.dropout(weights, p=p, training=training), value), weights
