import torch
from torch import nn


def lengths_to_mask(lengths, max_len=None):
    max_len = max_len or int(lengths.max())
    return torch.arange(max_len, device=lengths.device)[None, :] < lengths[:, None]


class Encoder(nn.Module):
    def __init__(self, d=64, h=4, n=2):
        super().__init__()
        layer = nn.TransformerEncoderLayer(d, h, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, n)

    def forward(self, x, lengths):
        valid = lengths_to_mask(lengths, x.size(1))
        return self.enc(x, src_key_padding_mask=~valid)
