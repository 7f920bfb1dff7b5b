import torch
from torch.utils.data import Dataset


class MaskedItemDataset(Dataset):
    def __init__(self, sequences, maxlen=200, mask_token=1):
        self.sequences, self.maxlen, self.mask_token = sequences, maxlen, mask_token

    def __len__(self):
        return len(self.sequences)

    def __getitem__(self, idx):
        seq = self.sequences[idx][-self.maxlen :]
        attention_mask = [0] * (self.maxlen - len(seq)) + [1] * len(seq)  # left padding
        tokens = [0] * (self.maxlen - len(seq)) + seq[:-1] + [self.mask_token]
        labels = [0] * (self.maxlen - 1) + [seq[-1]]
        return torch.tensor(tokens), torch.tensor(attention_mask, dtype=torch.long), torch.tensor(labels)
