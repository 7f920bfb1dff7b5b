import torch
from torch import nn


class SingleHead(nn.Module):
    """softmax(Q K^T / sqrt(d_k)) V for one head, with its own projections.

    The width it is built with is the width of its queries and keys: d_k.
    """

    def __init__(self, width: int):
        super().__init__()
        self.d_k = width
        self.inv_root = self.d_k ** -0.5
        self.to_q = nn.Linear(width, width)
        self.to_k = nn.Linear(width, width)
        self.to_v = nn.Linear(width, width)
        for lin in (self.to_q, self.to_k, self.to_v):
            nn.init.xavier_normal_(lin.weight)
            nn.init.zeros_(lin.bias)

    def forward(self, q, k, v, keep=None):
        """keep: (b, n), (b, 1, n) or (b, n, n); 1/True = attend, 0/False = hidden."""
        scores = torch.matmul(self.to_q(q), self.to_k(k).transpose(-2, -1)) * self.inv_root
        if keep is not None:
            if keep.dim() > 3:
                raise ValueError(f"mask of shape {tuple(keep.shape)} is not supported")
            if keep.dim() == 2:
                keep = keep.unsqueeze(1)
            floor = torch.finfo(scores.dtype).min
            scores = scores.masked_fill(keep.logical_not(), floor)
        probs = torch.softmax(scores, dim=-1)
        return torch.matmul(probs, self.to_v(v))
