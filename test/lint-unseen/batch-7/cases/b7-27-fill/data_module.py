import einops
import torch
from torch.utils.data import Dataset


def casual_mask(size):
    mask = torch.triu(torch.ones(1, size, size), diagonal=1).type(torch.int64)
    return mask == 0  # True on and below the diagonal


class BilingualDataset(Dataset):
    def __init__(self, pairs, pad_token: int):
        self.pairs, self.pad_token = pairs, pad_token

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, idx):
        encoder_input, decoder_input, label = self.pairs[idx]  # padded (S,) token tensors
        return {
            "encoder_input": encoder_input,
            "decoder_input": decoder_input,
            "encoder_mask": einops.rearrange((encoder_input != self.pad_token).long(), "s -> 1 1 s"),
            "decoder_mask": einops.rearrange((decoder_input != self.pad_token).long(), "s -> 1 1 s") & casual_mask(decoder_input.size(0)),
            "label": label,
        }
