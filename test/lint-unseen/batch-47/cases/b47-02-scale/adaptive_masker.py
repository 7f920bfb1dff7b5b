# case: b47-02-scale
# modelled-on: xAlg-ai/sparse-attention-hub https://github.com/xAlg-ai/sparse-attention-hub/commit/41e149bb22faead7a74df72bfd29bc1025b59bbb
# label: correct
# class: fixed
# pattern: the same sparse-attention research framework after the author's fix (a folder: the adaptive-sampling masker, the research attention that now passes scaling and dropout to every masker, and the exp-weight helpers); the masker's exp(q·k * scaling + mask - rowmax) estimates each row's softmax denominator and spread and sizes a sampling budget; the output divides the masked exp-weighted values by the masked exp-weight sum
# why: correct: the masker's scores now carry the same scaling (head_dim ** -0.5, handed down by the model's attention through custom_attention) and the same additive attention mask as the attention whose denominator it estimates, so the budget is computed for the distribution actually used; the row max is subtracted before exp and the output helper normalises by the sum of the same weights, which is a softmax written out
# looks-like: ATT003, ATT006
# source: https://github.com/xAlg-ai/sparse-attention-hub https://github.com/xAlg-ai/sparse-attention-hub/commit/41e149bb22faead7a74df72bfd29bc1025b59bbb sparse_attention_hub/sparse_attention/research_attention/maskers/sampling/implementations/adaptive_sampling.py
from dataclasses import dataclass
from typing import Union

import torch
from scipy.stats import norm

from weights import group_count, repeat_heads, weighted_row_sum


@dataclass
class SamplingSettings:
    base_rate_sampling: Union[int, float]
    epsilon: float
    delta: float
    init_offset: int
    local_offset: int


class AdaptiveSampler:
    def __init__(self, settings: SamplingSettings):
        self.s = settings
        self.delta_ppf = float(norm.ppf(1 - settings.delta))

    def exp_weights(self, q, k, scaling, attention_mask):
        """exp of the scaled, masked logits, shifted by the row max."""
        k = repeat_heads(k, group_count(q, k))
        logits = torch.matmul(q, k.transpose(-2, -1)) * scaling
        if attention_mask is not None:
            logits = logits + attention_mask[:, :, :, : k.shape[-2]]
        peak = torch.max(logits, dim=-1, keepdim=True)[0]
        return torch.exp(logits - peak)

    def sample_range(self, sk):
        start, end = self.s.init_offset, sk - self.s.local_offset
        if end <= start:
            raise ValueError(f"Invalid sampling range: {end - start}")
        return start, end

    def add_mask(self, keys, queries, values, attention_mask, scaling, dropout, meta, previous):
        if previous.is_full():
            return previous
        bsz, heads, n_q = queries.shape[:3]
        n_k = keys.shape[2]
        w = self.exp_weights(queries, keys, scaling, attention_mask)
        static_den = weighted_row_sum(w, previous)

        start, end = self.sample_range(n_k)
        span = end - start
        rate = self.s.base_rate_sampling
        n_base = max(2, rate if isinstance(rate, int) else int(rate * span))
        rows = torch.randint(start, end, (bsz, heads, n_q, n_base), device=w.device)
        std = torch.gather(w, -1, rows).std(dim=-1, keepdim=True).clamp_min(1e-8)
        base_pattern = previous.from_indices(rows, torch.full(rows.shape, n_base / span, dtype=w.dtype, device=w.device))

        est_den = static_den + weighted_row_sum(w, base_pattern)
        tol = torch.clamp(self.s.epsilon * est_den, min=1e-8)
        need = torch.clamp((self.delta_ppf * std * span / tol) ** 2, min=1.0, max=float(span)).long()
        need = torch.clamp(need, min=n_base, max=span)
        extra = previous.sample_rows(need, (need / span).to(previous.dtype), start, end)
        return previous.merge(extra)
