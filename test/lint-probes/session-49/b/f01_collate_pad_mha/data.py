import torch
from torch.nn.utils.rnn import pad_sequence

PAD = 0


def collate(batch):
    ids = pad_sequence([torch.as_tensor(b) for b in batch], batch_first=True, padding_value=PAD)
    pad_mask = ids == PAD
    return ids, pad_mask
