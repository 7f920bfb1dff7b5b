# case: b47-01-scale
# modelled-on: xAlg-ai/sparse-attention-hub https://github.com/xAlg-ai/sparse-attention-hub/commit/b8c428d07fb050b4cb09429c553f6463e07de112
# label: buggy
# class: real-bug
# pattern: a sparse-attention research framework (a folder: the adaptive-sampling masker, the research attention that chains maskers and then computes the output, and the shared exp-weight helpers); the masker forms exp(q·k - rowmax) over all keys to estimate each row's softmax denominator and its spread, and sizes a per-row sampling budget from them; the output helper forms its exp-weights from the same q·k multiplied by scaling (head_dim ** -0.5) and divides numerator by denominator
# why: buggy: the masker's exp-weights are the unnormalised softmax of q·k with no 1/sqrt(d) scale, while the attention the pattern is built for (masked_ops._exp_logits, called with the model's scaling) uses q·k * scaling, so the denominator estimate, the standard deviation and the budget are computed for a much sharper distribution than the one actually attended with; the caller never hands scaling to the maskers. The author's next commit (41e149b, "Fix: pass scaling, dropout to add_mask ... apply scaling when we use exp-weights") passes scaling to add_mask and multiplies the masker's scores by it (and adds the attention mask)
# source: https://github.com/xAlg-ai/sparse-attention-hub https://github.com/xAlg-ai/sparse-attention-hub/commit/b8c428d07fb050b4cb09429c553f6463e07de112 sparse_attention_hub/sparse_attention/research_attention/maskers/sampling/implementations/adaptive_sampling.py
from dataclasses import dataclass
from typing import Any, Dict, Union

import torch
from scipy.stats import norm

from masked_ops import expand_kv, kv_groups, masked_row_sum


@dataclass
class AdaptiveBudgetConfig:
    base_rate: Union[int, float]
    epsilon: float
    delta: float
    head_offset: int
    tail_offset: int


class AdaptiveBudgetMasker:
    """Samples keys at random, then grows each row's sample until the denominator is within epsilon w.p. 1 - delta."""

    def __init__(self, config: AdaptiveBudgetConfig):
        self.base_rate = config.base_rate
        self.epsilon = config.epsilon
        self.delta = config.delta
        self.head_offset = config.head_offset
        self.tail_offset = config.tail_offset
        self.z = float(norm.ppf(1 - self.delta))

    def _exp_scores(self, queries: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
        keys = expand_kv(keys, kv_groups(queries, keys))
        raw = torch.matmul(queries, keys.transpose(-2, -1))
        row_max = torch.max(raw, dim=-1, keepdim=True)[0]
        return torch.exp(raw - row_max)  # expect: ATT003

    def _window(self, n_keys: int):
        lo, hi = self.head_offset, n_keys - self.tail_offset
        if hi - lo <= 0:
            raise ValueError(f"empty sampling window: {hi - lo}")
        return lo, hi, hi - lo

    def _n_base(self, width: int) -> int:
        if isinstance(self.base_rate, int):
            return max(2, self.base_rate)
        return max(2, int(self.base_rate * width))

    def add_mask(self, keys, queries, values, attention_mask, meta: Dict[str, Any], previous):
        if previous.is_full():
            return previous
        b, h, sq = queries.shape[0], queries.shape[1], queries.shape[2]
        sk = keys.shape[2]

        expw = self._exp_scores(queries, keys)
        kept_sum = masked_row_sum(expw, previous)

        lo, hi, width = self._window(sk)
        n_base = self._n_base(width)
        idx = torch.randint(lo, hi, (b, h, sq, n_base), device=expw.device)
        picked = torch.gather(expw, dim=-1, index=idx)
        spread = picked.std(dim=-1, keepdim=True).clamp(min=1e-8)
        base = previous.from_indices(idx, torch.full_like(idx, n_base / width, dtype=expw.dtype))

        denom = kept_sum + masked_row_sum(expw, base)
        allowed = (self.epsilon * denom).clamp(min=1e-8)
        budget = ((self.z * spread * width / allowed) ** 2).clamp(min=1.0, max=float(width)).long()
        budget = budget.clamp(min=n_base, max=width)

        sampled = previous.sample_rows(budget, (budget / width).to(previous.dtype), lo, hi)
        return previous.merge(sampled)
