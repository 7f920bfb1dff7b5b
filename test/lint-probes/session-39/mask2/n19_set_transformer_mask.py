import torch
import torch.nn as nn


class MAB(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.mha = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, Q, K, present):
        # present: (B, N) True for set elements that exist
        return self.mha(Q, K, K, key_padding_mask=~present)[0]


class PMA(nn.Module):
    def __init__(self, d, h, k):
        super().__init__()
        self.seeds = nn.Parameter(torch.randn(1, k, d))
        self.mab = MAB(d, h)

    def forward(self, X, sizes):
        N = X.size(1)
        present = torch.arange(N, device=X.device)[None, :] < sizes[:, None]
        return self.mab(self.seeds.expand(X.size(0), -1, -1), X, present)
