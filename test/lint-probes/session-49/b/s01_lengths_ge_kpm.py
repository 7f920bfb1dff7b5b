import torch
from torch import nn


class LengthEncoder(nn.Module):
    """Speech-style encoder: frames padded per batch, lengths given."""

    def __init__(self, d=256, h=4):
        super().__init__()
        self.mha = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, feats, lengths):
        B, T, _ = feats.shape
        steps = torch.arange(T, device=feats.device)[None, :]
        is_pad = steps >= lengths[:, None]  # True past each utterance's end
        out, _ = self.mha(feats, feats, feats, key_padding_mask=is_pad)
        return out
