from typing import Dict, List, Optional

import torch
import torch.nn as nn

from biased_attention import FeatureTokenAttention


class MonthDecayPrior(nn.Module):
    """bias[i, j] = -alpha * |month(i) - month(j)| for tokens of one monthly group, else 0."""

    def __init__(self, layout: Dict[str, Dict[str, List[int]]], seq_len: int, per_head: bool = False, n_heads: int = 1):
        super().__init__()
        dist = torch.zeros(seq_len, seq_len)
        for spec in layout.values():
            for p_i, m_i in zip(spec["positions"], spec["months"]):
                for p_j, m_j in zip(spec["positions"], spec["months"]):
                    dist[p_i, p_j] = -abs(m_i - m_j)
        self.register_buffer("neg_distance_masked", dist, persistent=False)
        # starts at zero: the prior is off until training finds it useful
        self.alpha = nn.Parameter(torch.zeros(n_heads if per_head else 1))
        self.per_head = per_head

    def forward(self) -> torch.Tensor:
        if self.per_head:
            return self.alpha.view(-1, 1, 1) * self.neg_distance_masked.unsqueeze(0)
        return self.alpha * self.neg_distance_masked


class GroupPairPrior(nn.Module):
    def __init__(self, group_of_token: List[int], n_groups: int):
        super().__init__()
        self.register_buffer("group", torch.tensor(group_of_token), persistent=False)
        self.table = nn.Parameter(torch.zeros(n_groups, n_groups))

    def forward(self) -> torch.Tensor:
        g = self.group
        return self.table[g.unsqueeze(-1), g.unsqueeze(0)]


class PriorEncoder(nn.Module):
    def __init__(self, d_model, n_heads, depth, decay: Optional[MonthDecayPrior] = None, groups: Optional[GroupPairPrior] = None):
        super().__init__()
        self.attn = nn.ModuleList([FeatureTokenAttention(d_model, n_heads) for _ in range(depth)])
        self.ffn = nn.ModuleList([nn.Sequential(nn.LayerNorm(d_model), nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model)) for _ in range(depth)])
        self.norm = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(depth)])
        self.decay, self.groups = decay, groups

    def combined_bias(self) -> Optional[torch.Tensor]:
        parts = [m() for m in (self.decay, self.groups) if m is not None]
        if not parts:
            return None
        total = parts[0]
        for extra in parts[1:]:
            total = total + extra
        return total

    def forward(self, tokens: torch.Tensor):
        bias = self.combined_bias()
        maps = []
        for attn, ffn, norm in zip(self.attn, self.ffn, self.norm):
            out, w = attn(norm(tokens), bias)
            tokens = tokens + out
            tokens = tokens + ffn(tokens)
            maps.append(w)
        return tokens, maps
