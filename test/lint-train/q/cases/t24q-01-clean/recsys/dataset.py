import random
from typing import Dict, List

import torch

PAD = 0
MASK = 1


class MaskedHistoryDataset(torch.utils.data.Dataset):
    """One user's item history per example, padded on a random side, with keep masks for the encoder."""

    def __init__(self, histories: List[List[int]], max_len: int = 64, split: str = "train", holdout: int = 2):
        self.histories = histories
        self.max_len = max_len
        self.split = split
        self.holdout = holdout

    def _cloze(self, seq: List[int], p: float = 0.8) -> List[int]:
        return [s if random.random() < p else MASK for s in seq]

    def _pad(self, seq: List[int], side: str) -> List[int]:
        seq = seq[-self.max_len :]
        fill = [PAD] * (self.max_len - len(seq))
        return fill + seq if side == "left" else seq + fill

    def __len__(self) -> int:
        return len(self.histories)

    def __getitem__(self, idx: int) -> Dict[str, torch.Tensor]:
        target = self.histories[idx]
        if self.split == "train":
            source = self._cloze(target)
        else:
            source = target[: -self.holdout] + self._cloze(target[-self.holdout :], p=0.5)

        side = "left" if random.random() < 0.5 else "right"
        target = self._pad(target, side)
        source = self._pad(source, side)
        # 1 = a real item the encoder may attend to, 0 = padding
        source_mask = [1 if t != PAD else 0 for t in source]
        return {
            "source": torch.tensor(source, dtype=torch.long),
            "target": torch.tensor(target, dtype=torch.long),
            "source_mask": torch.tensor(source_mask, dtype=torch.long),
        }
