import numpy as np
import torch
from torch.utils.data import Dataset


class TrainHistories(Dataset):
    def __init__(self, train_data, max_len, n_items, n_neg=1):
        self.max_len = max_len
        self.n_items = n_items
        self.n_neg = n_neg
        self.users = list(train_data)
        self.data = {}
        for user, items in train_data.items():
            items = items[-(max_len + 1):]
            self.data[user] = np.pad(items, (max_len + 1 - len(items), 0))  # left padding with 0

    def __len__(self):
        return len(self.users)

    def __getitem__(self, i):
        user = self.users[i]
        items = torch.as_tensor(self.data[user], dtype=torch.long)
        source, target = items[:-1], items[1:]
        source_pad_mask = source == 0
        target_pad_mask = target == 0
        neg = torch.randint(1, self.n_items, (self.max_len, self.n_neg))
        return source, target, source_pad_mask, target_pad_mask, neg, user
