"""Session click sequences for SASRec training: one example per session, right-aligned."""
import numpy as np
import torch
from torch.utils.data import Dataset

PAD_ID = 0


class SessionTrainDataset(Dataset):
    """Yields (input, positives, negatives), each (max_seq_len,) and left-padded with PAD_ID."""

    def __init__(self, sessions: dict[int, list[int]], n_items: int, max_seq_len: int, seed: int = 0):
        self.sessions = [s for s in sessions.values() if len(s) >= 2]
        self.n_items = n_items
        self.max_seq_len = max_seq_len
        self.rng = np.random.default_rng(seed)

    def __len__(self) -> int:
        return len(self.sessions)

    def right_align(self, clicks: list[int]) -> np.ndarray:
        # the newest click sits in the last slot; older slots on the left stay PAD_ID
        out = np.zeros(self.max_seq_len, dtype=np.int64)
        clicks = clicks[-self.max_seq_len:]
        out[-len(clicks):] = clicks
        return out

    def sample_negative(self, exclude: set[int]) -> int:
        while True:
            cand = int(self.rng.integers(1, self.n_items + 1))
            if cand not in exclude:
                return cand

    def __getitem__(self, idx: int):
        sess = self.sessions[idx]
        inp = self.right_align(sess[:-1])
        pos = self.right_align(sess[1:])
        neg = np.zeros_like(inp)
        seen = set(sess)
        for p in np.flatnonzero(inp):
            neg[p] = self.sample_negative(seen)
        return torch.from_numpy(inp), torch.from_numpy(pos), torch.from_numpy(neg)
