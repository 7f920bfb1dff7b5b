import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import Dataset

PAD_IDX = 0


class SmilesDataset(Dataset):
    def __init__(self, encoded):
        self.encoded = encoded

    def __len__(self):
        return len(self.encoded)

    def __getitem__(self, i):
        return torch.tensor(self.encoded[i], dtype=torch.long)


def collate(batch):
    tokens = pad_sequence(batch, batch_first=True, padding_value=PAD_IDX)
    pad_mask = tokens == PAD_IDX  # True at the padding
    return tokens, pad_mask
