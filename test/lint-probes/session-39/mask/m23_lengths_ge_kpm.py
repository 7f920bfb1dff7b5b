import torch
import torch.nn as nn

layer = nn.TransformerEncoderLayer(d_model=64, nhead=4, batch_first=True)


def encode(x, lengths):
    # x: (B, T, 64); lengths: (B,)
    T = x.size(1)
    pad = torch.arange(T, device=x.device).unsqueeze(0) >= lengths.unsqueeze(1)  # (B, T) True past the length
    return layer(x, src_key_padding_mask=pad)
