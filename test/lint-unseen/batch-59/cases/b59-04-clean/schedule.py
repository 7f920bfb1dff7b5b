"""Mask annealing: how often the query-to-patch attention mask is applied in each joint block."""

import torch


def annealing_windows(total_steps: int, joint_blocks: int) -> tuple[list[int], list[int]]:
    """Equal training phases; block i anneals its mask during phase i + 1."""
    n_phases = joint_blocks + 2
    edges = [round(i * total_steps / n_phases) for i in range(n_phases + 1)]
    return edges[1:-2], edges[2:-1]


def mask_probability(step: int, start: int, end: int, power: float = 0.9) -> torch.Tensor:
    """1 before `start`, 0 from `end` on, a polynomial decay in between."""
    if step < start:
        return torch.ones(1)
    if step >= end:
        return torch.zeros(1)
    progress = (step - start) / (end - start)
    return torch.tensor(1.0 - progress).pow(power).reshape(1)


def update_mask_probs(model, step: int, starts: list[int], ends: list[int]) -> None:
    for i in range(len(model.mask_probs)):
        model.mask_probs[i] = mask_probability(step, starts[i], ends[i])
