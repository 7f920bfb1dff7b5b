import torch
from torch.utils.data import Dataset


class TranslationDataset(Dataset):
    def __init__(self, pairs, tokenizer, seq_len, pad_token=0):
        self.pairs, self.tok, self.seq_len, self.pad = pairs, tokenizer, seq_len, pad_token

    def __len__(self):
        return len(self.pairs)

    def _pad(self, ids):
        ids = ids[: self.seq_len]
        return torch.tensor(ids + [self.pad] * (self.seq_len - len(ids)))

    def __getitem__(self, idx):
        src, tgt = self.pairs[idx]
        src_encoding = self._pad(self.tok.encode(src))
        tgt_ids = self.tok.encode(tgt)
        tgt_encoding = self._pad(tgt_ids[:-1])
        label = self._pad(tgt_ids[1:])
        src_mask = (src_encoding == self.pad).unsqueeze(0)  # (1, T), True = padding
        tgt_mask = (tgt_encoding == self.pad).unsqueeze(0)
        return src_encoding, tgt_encoding, label, src_mask, tgt_mask
