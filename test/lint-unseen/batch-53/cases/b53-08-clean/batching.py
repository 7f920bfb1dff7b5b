from typing import List, Sequence

import torch
from torch.utils.data import Dataset


class HeadlineSet(Dataset):
    def __init__(self, encoded: Sequence[List[int]], classes: Sequence[int], limit: int = 128):
        self.encoded = [list(e)[:limit] for e in encoded]
        self.classes = list(classes)

    def __len__(self) -> int:
        return len(self.encoded)

    def __getitem__(self, i: int):
        return torch.tensor(self.encoded[i], dtype=torch.long), torch.tensor(self.classes[i], dtype=torch.long)


def collate_padded(items, pad_id: int, width: int):
    """Right-pads every sequence to `width`; `real` is True on real tokens, False on padding."""
    seqs, ys = zip(*items)
    ids = torch.full((len(seqs), width), pad_id, dtype=torch.long)
    real = torch.zeros((len(seqs), width), dtype=torch.bool)
    for row, s in enumerate(seqs):
        s = s[:width]
        if len(s):
            ids[row, : len(s)] = s
            real[row, : len(s)] = True
    return {"input_ids": ids, "attention_mask": real, "labels": torch.stack(ys)}
