import torch
from torch.utils.data import Dataset


def causal_mask(size):
    upper = torch.triu(torch.ones(1, size, size), diagonal=1).type(torch.int)
    return upper == 0


class PairData(Dataset):
    def __init__(self, pairs, tokenizer, max_len, pad_id):
        self.pairs = pairs
        self.tok = tokenizer
        self.max_len = max_len
        self.pad = pad_id

    def __len__(self):
        return len(self.pairs)

    def _pad(self, ids):
        ids = ids[: self.max_len]
        return torch.tensor(ids + [self.pad] * (self.max_len - len(ids)), dtype=torch.long)

    def __getitem__(self, i):
        src, tgt = self.pairs[i]
        enc = self._pad(self.tok.encode(src))
        dec = self._pad(self.tok.encode(tgt))
        return {
            "enc_tokens": enc,
            "dec_tokens": dec,
            # 1 = real token, 0 = padding; the decoder's mask also drops future positions
            "enc_mask": (enc != self.pad).unsqueeze(0).unsqueeze(0).int(),
            "dec_mask": (dec != self.pad).unsqueeze(0).unsqueeze(0).int() & causal_mask(self.max_len),
        }
