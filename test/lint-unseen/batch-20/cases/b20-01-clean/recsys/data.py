import torch
from torch.utils.data import Dataset


class NextItemDataset(Dataset):
    """Next-item prediction over user histories, left-padded to a fixed length."""

    def __init__(self, histories, seq_len=200, pad_token=0, ignore_label=0):
        self.histories = histories
        self.seq_len = seq_len
        self.pad_token = pad_token
        self.ignore_label = ignore_label

    def __len__(self):
        return len(self.histories)

    def __getitem__(self, i):
        items = self.histories[i][-(self.seq_len + 1):]
        tokens, labels = items[:-1], items[1:]
        n_pad = self.seq_len - len(tokens)
        tokens = [self.pad_token] * n_pad + tokens
        labels = [self.ignore_label] * n_pad + labels
        return torch.LongTensor(tokens), torch.LongTensor(labels)
