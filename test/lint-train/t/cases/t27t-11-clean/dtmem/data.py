"""Offline trajectories cut into fixed windows for the Decision Transformer."""
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import torch
from torch.utils.data import Dataset


@dataclass
class Trajectory:
    states: np.ndarray          # (T, state_dim)
    actions: np.ndarray         # (T,) int64
    returns_to_go: np.ndarray   # (T,)
    timesteps: np.ndarray       # (T,)


def build_windows(trajectories: Sequence[Trajectory], context_length: int, state_dim: int, rtg_scale: float = 1.0):
    """Left-pad every window so that the real steps sit at its end, as at rollout time."""
    samples = []
    for tr in trajectories:
        for end in range(len(tr.actions) - 1, -1, -1):
            start = max(0, end - context_length + 1)
            pad = context_length - (end - start + 1)
            states = np.zeros((context_length, state_dim), dtype=np.float32)
            actions = np.zeros(context_length, dtype=np.int64)
            rtg = np.zeros(context_length, dtype=np.float32)
            timesteps = np.zeros(context_length, dtype=np.int64)
            mask = np.zeros(context_length, dtype=bool)
            states[pad:] = tr.states[start:end + 1]
            actions[pad:] = tr.actions[start:end + 1]
            rtg[pad:] = tr.returns_to_go[start:end + 1] / rtg_scale
            timesteps[pad:] = tr.timesteps[start:end + 1]
            mask[pad:] = True  # True on the real steps of the window
            samples.append(dict(returns_to_go=rtg, states=states, actions=actions, timesteps=timesteps, mask=mask))
    return samples


class WindowDataset(Dataset):
    def __init__(self, samples):
        self.samples = samples

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        return {k: torch.as_tensor(v) for k, v in self.samples[i].items()}
