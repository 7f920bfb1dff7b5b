import torch

DNA = {"A": 0, "C": 1, "G": 2, "T": 3, "N": 4}
PAD_ID = 5
CLS_ID = 6
VOCAB_SIZE = 7


def encode(seq: str, max_len: int) -> torch.Tensor:
    ids = [CLS_ID] + [DNA.get(ch, DNA["N"]) for ch in seq.upper()]
    ids = ids[:max_len]
    ids += [PAD_ID] * (max_len - len(ids))
    return torch.tensor(ids, dtype=torch.long)


def attention_mask(ids: torch.Tensor) -> torch.Tensor:
    """1 on real tokens, 0 on padding."""
    return (ids != PAD_ID).long()


class WindowDataset(torch.utils.data.Dataset):
    def __init__(self, seqs, labels, max_len=128):
        self.seqs, self.labels, self.max_len = seqs, labels, max_len

    def __len__(self):
        return len(self.seqs)

    def __getitem__(self, i):
        x = encode(self.seqs[i], self.max_len)
        return x, attention_mask(x), torch.tensor(self.labels[i])
