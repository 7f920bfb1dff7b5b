import random

import numpy as np
from torch.utils.data import IterableDataset


def pad_along_axis(arr: np.ndarray, pad_to: int, axis: int = 0, fill_value: float = 0.0) -> np.ndarray:
    pad_size = pad_to - arr.shape[axis]
    if pad_size <= 0:
        return arr
    npad = [(0, 0)] * arr.ndim
    npad[axis] = (0, pad_size)
    return np.pad(arr, pad_width=npad, mode="constant", constant_values=fill_value)


class SequenceDataset(IterableDataset):
    def __init__(self, trajectories, state_mean, state_std, seq_len: int = 10, reward_scale: float = 1.0):
        self.trajectories = trajectories
        self.state_mean, self.state_std = state_mean, state_std
        self.seq_len = seq_len
        self.reward_scale = reward_scale

    def _sample(self, traj_idx, start_idx):
        traj = self.trajectories[traj_idx]
        end = start_idx + self.seq_len
        states = (traj["observations"][start_idx:end] - self.state_mean) / self.state_std
        actions = traj["actions"][start_idx:end]
        returns = traj["returns"][start_idx:end] * self.reward_scale
        time_steps = np.arange(start_idx, end)
        # 1 for the real steps of the window, 0 for the padding added after them
        mask = np.hstack([np.ones(states.shape[0]), np.zeros(self.seq_len - states.shape[0])])
        if states.shape[0] < self.seq_len:
            states = pad_along_axis(states, pad_to=self.seq_len)
            actions = pad_along_axis(actions, pad_to=self.seq_len)
            returns = pad_along_axis(returns, pad_to=self.seq_len)
        return states, actions, returns, time_steps, mask

    def __iter__(self):
        while True:
            idx = random.randrange(len(self.trajectories))
            start = random.randint(0, self.trajectories[idx]["rewards"].shape[0] - 1)
            yield self._sample(idx, start)
