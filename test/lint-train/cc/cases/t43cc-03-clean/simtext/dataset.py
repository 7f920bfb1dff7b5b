from typing import Dict, List

import torch
from torch.utils.data import Dataset


class PairDataset(Dataset):
    def __init__(self, pairs, vocab, max_len=64, pad_idx=0, unk_idx=1):
        self.pairs = pairs
        self.vocab = vocab
        self.max_len = max_len
        self.pad_idx = pad_idx
        self.unk_idx = unk_idx

    def _to_ids(self, tokens: List[str]) -> torch.Tensor:
        ids = [self.vocab.get(t, self.unk_idx) for t in tokens[: self.max_len]]
        ids += [self.pad_idx] * (self.max_len - len(ids))
        return torch.tensor(ids, dtype=torch.long)

    def _make_attention_mask(self, ids: torch.Tensor) -> torch.Tensor:
        return (ids != self.pad_idx).long()

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, idx) -> Dict[str, torch.Tensor]:
        left, right, label = self.pairs[idx]
        ids_a, ids_b = self._to_ids(left), self._to_ids(right)
        return {
            'input_ids_a': ids_a,
            'input_ids_b': ids_b,
            'attention_mask_a': self._make_attention_mask(ids_a),
            'attention_mask_b': self._make_attention_mask(ids_b),
            'label': torch.tensor(label, dtype=torch.float),
        }


def collate(batch):
    return {key: torch.stack([item[key] for item in batch]) for key in batch[0]}
