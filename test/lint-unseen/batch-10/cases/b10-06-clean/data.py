import torch
from torch.utils.data import Dataset


class PairDataset(Dataset):
    def __init__(self, pairs, tokenizer, max_length, pad_id, bos_id, eos_id):
        self.pairs = pairs
        self.tok = tokenizer
        self.max_length = max_length
        self.pad_id, self.bos_id, self.eos_id = pad_id, bos_id, eos_id

    def _pad(self, ids):
        ids = ids[: self.max_length]
        return ids + [self.pad_id] * (self.max_length - len(ids))

    def attention_mask(self, ids):
        """1 for a real token, 0 for padding."""
        return [1 if t != self.pad_id else 0 for t in ids]

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, i):
        src, tgt = self.pairs[i]
        src_ids = self._pad([self.bos_id] + self.tok.encode(src)[: self.max_length - 2] + [self.eos_id])
        tgt_ids = self._pad([self.bos_id] + self.tok.encode(tgt)[: self.max_length - 1])
        return {
            "source_ids": torch.tensor(src_ids),
            "source_mask": torch.tensor(self.attention_mask(src_ids)),
            "target_ids": torch.tensor(tgt_ids),
            "target_mask": torch.tensor(self.attention_mask(tgt_ids)),
        }
