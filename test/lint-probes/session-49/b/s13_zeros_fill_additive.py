import torch
from torch import nn


class Pool(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.score = nn.Linear(d, 1)

    def forward(self, h, ids, pad_id):
        is_pad = ids == pad_id
        bias = torch.zeros(is_pad.shape, dtype=h.dtype, device=h.device)
        bias.masked_fill_(is_pad, float("-inf"))
        w = torch.softmax(self.score(h).squeeze(-1) + bias, dim=-1)
        return (w.unsqueeze(-1) * h).sum(1)
