import torch
from torch.nn.utils.rnn import pad_sequence


def collate_fn(samples):
    feats = [torch.as_tensor(s["feats"]) for s in samples]
    lengths = torch.tensor([f.shape[0] for f in feats])
    x = pad_sequence(feats, batch_first=True)  # (B, T, F)
    return x, lengths
