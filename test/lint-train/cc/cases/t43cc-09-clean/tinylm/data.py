import torch
from torch.utils.data import DataLoader, Dataset

PAD_ID = 0
BOS_ID = 1
EOS_ID = 2
UNK_ID = 3


class CharTokenizer:
    def __init__(self, vocab: str):
        self.char_to_id = {ch: i + 4 for i, ch in enumerate(vocab)}

    def encode(self, text: str) -> list:
        return [self.char_to_id.get(ch, UNK_ID) for ch in text]


class ContiguousLMDataset(Dataset):
    """All token ids in one tensor; each item is a contiguous slice and its one-step shift."""

    def __init__(self, tokenizer: CharTokenizer, text: str, seq_len: int):
        self.seq_len = seq_len
        body = torch.tensor(tokenizer.encode(text), dtype=torch.long)
        self.ids = torch.cat([torch.tensor([BOS_ID]), body, torch.tensor([EOS_ID])])
        self.num_sequences = (self.ids.numel() - 1) // seq_len

    def __len__(self):
        return self.num_sequences

    def __getitem__(self, idx: int):
        start = idx * self.seq_len
        return self.ids[start : start + self.seq_len], self.ids[start + 1 : start + self.seq_len + 1]


def train_loader(text: str, tokenizer: CharTokenizer, seq_len: int, batch_size: int) -> DataLoader:
    return DataLoader(ContiguousLMDataset(tokenizer, text, seq_len), batch_size=batch_size, shuffle=True, drop_last=True)
