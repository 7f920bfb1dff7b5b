import numpy as np
import torch
from torch.utils.data import Dataset


class NextItemDataset(Dataset):
    """(seq, pos) pairs of user histories, left-padded with 0 to maxlen."""

    def __init__(self, user_items, maxlen: int):
        self.users = list(user_items)
        self.user_items = user_items
        self.maxlen = maxlen

    def __len__(self):
        return len(self.users)

    def __getitem__(self, idx):
        items = self.user_items[self.users[idx]][-(self.maxlen + 1):]
        seq_raw, pos_raw = items[:-1], items[1:]
        seq = np.zeros(self.maxlen, dtype=np.int64)
        pos = np.zeros(self.maxlen, dtype=np.int64)
        seq[-len(seq_raw):] = seq_raw
        pos[-len(pos_raw):] = pos_raw
        return torch.from_numpy(seq), torch.from_numpy(pos)
