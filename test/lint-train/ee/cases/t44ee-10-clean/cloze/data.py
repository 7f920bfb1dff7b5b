import random

import numpy as np
import torch
from torch.utils.data import Dataset


def left_pad(seq, max_len):
    if len(seq) >= max_len:
        return seq[-max_len:]
    return [0] * (max_len - len(seq)) + seq


def train_windows(histories, max_len):
    out = []
    for seq in histories.values():
        if not seq:
            continue
        if len(seq) <= max_len:
            out.append(left_pad(seq, max_len))
        else:
            out.extend(seq[end - max_len:end] for end in range(max_len, len(seq) + 1))
    return out


class ClozeWindows(Dataset):
    def __init__(self, windows, max_len, mask_token, prob):
        self.windows, self.max_len, self.mask_token, self.prob = windows, max_len, mask_token, prob

    def __len__(self):
        return len(self.windows)

    def __getitem__(self, i):
        ids = np.array(self.windows[i], dtype=np.int64)
        labels = np.zeros_like(ids)
        attention_mask = (ids > 0).astype(np.int64)
        real = np.where(ids > 0)[0]
        picked = real[np.random.rand(len(real)) < self.prob]
        if len(picked) == 0:
            picked = np.array([random.choice(real.tolist())], dtype=np.int64)
        labels[picked] = ids[picked]
        ids[picked] = self.mask_token
        return {"ids": torch.from_numpy(ids), "attention_mask": torch.from_numpy(attention_mask), "labels": torch.from_numpy(labels)}


def last_position_input(seq, mask_token, max_len):
    padded = left_pad(seq + [mask_token], max_len)
    keep = [1 if t > 0 else 0 for t in padded]
    return torch.tensor(padded), torch.tensor(keep), len(padded) - 1
