import torch
import torch.nn as nn


class Pool(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.mha = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, x, lengths):  # x: (B, S, d); lengths: (B,)
        S = x.size(1)
        keep = torch.arange(S, device=x.device)[None, :] < lengths[:, None]  # (B, S) True at real steps
        out, _ = self.mha(x, x, x, key_padding_mask=~keep)  # MHA wants True at padding
        return out
