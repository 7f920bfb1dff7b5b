import random

import numpy as np
import torch
from torch.utils.data import Dataset


class HistoryDataset(Dataset):
    """Leave-one-out split; every history is written right-aligned into a zero array (left padding)."""

    def __init__(self, histories, max_len, n_items):
        self.users = list(histories.keys())
        self.histories = histories
        self.max_len = max_len
        self.n_items = n_items

    def __len__(self):
        return len(self.users)

    def _negative(self, seen):
        item = random.randint(1, self.n_items)
        while item in seen:
            item = random.randint(1, self.n_items)
        return item

    def __getitem__(self, idx):
        user = self.users[idx]
        full = self.histories[user]
        train_part = full[:-2]
        inp, pos = train_part[:-1], train_part[1:]
        seen = set(full)
        neg = [self._negative(seen) for _ in pos]

        x = np.zeros(self.max_len, dtype=np.int64)
        y_pos = np.zeros(self.max_len, dtype=np.int64)
        y_neg = np.zeros(self.max_len, dtype=np.int64)
        n = len(inp)
        if n >= self.max_len:
            x[:], y_pos[:], y_neg[:] = inp[-self.max_len:], pos[-self.max_len:], neg[-self.max_len:]
        elif n > 0:
            x[-n:], y_pos[-n:], y_neg[-n:] = inp, pos, neg
        return torch.tensor(user), torch.tensor(x), torch.tensor(y_pos), torch.tensor(y_neg)
