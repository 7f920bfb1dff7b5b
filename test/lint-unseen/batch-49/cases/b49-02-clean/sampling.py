"""Next-token sampling. Every filter pushes logits to -inf before the final softmax."""

from __future__ import annotations

import torch


def keep_top_k(logits: torch.Tensor, k: int) -> torch.Tensor:
    if k <= 0:
        return logits
    k = min(k, logits.size(-1))
    threshold = torch.topk(logits, k, dim=-1).values[..., -1:]
    return logits.masked_fill(logits < threshold, float("-inf"))


def keep_nucleus(logits: torch.Tensor, p: float) -> torch.Tensor:
    ordered, order = torch.sort(logits, dim=-1, descending=True)
    probs = torch.softmax(ordered, dim=-1)
    mass_before = probs.cumsum(dim=-1) - probs
    drop_sorted = mass_before > p  # the most likely token always survives
    drop = torch.zeros_like(drop_sorted).scatter(-1, order, drop_sorted)
    return logits.masked_fill(drop, float("-inf"))


def draw(logits: torch.Tensor, temperature: float, top_k: int | None, top_p: float | None) -> torch.Tensor:
    if temperature <= 0.0:
        return logits.argmax(dim=-1, keepdim=True)
    logits = logits / temperature
    if top_k is not None:
        logits = keep_top_k(logits, top_k)
    if top_p is not None:
        logits = keep_nucleus(logits, top_p)
    return torch.multinomial(torch.softmax(logits, dim=-1), num_samples=1)
