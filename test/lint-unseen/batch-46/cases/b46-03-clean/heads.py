import math

import torch
from torch import nn

from settings import AttnSettings


def dct_basis(n: int, m: int) -> torch.Tensor:
    """First m rows of the orthonormal DCT-II matrix for length-n signals: (m, n)."""
    pos = torch.arange(n, dtype=torch.float32)
    freq = torch.arange(m, dtype=torch.float32)[:, None]
    basis = torch.cos(math.pi * (pos + 0.5) * freq / n) * math.sqrt(2.0 / n)
    basis[0] /= math.sqrt(2.0)
    return basis


class DenseHead(nn.Module):
    def __init__(self, cfg: AttnSettings):
        super().__init__()
        self.head_dim = cfg.head_dim
        self.drop = nn.Dropout(cfg.dropout)
        self.norm = nn.Softmax(dim=-1)

    def forward(self, q, k, v, mask=None):
        # (bs, h, q, d) x (bs, h, d, k) -> (bs, h, q, k)
        energy = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        if mask is not None:
            # mask: (bs, k), 1 = token, 0 = padding
            energy = energy - 1e6 * (1.0 - mask.float()[:, None, None, :])
        weights = self.norm(energy)
        return torch.matmul(self.drop(weights), v.float())


class SpectralHead(nn.Module):
    """Attention over the first maxM DCT coefficients of the sequence axis."""

    basis = None

    def __init__(self, cfg: AttnSettings):
        super().__init__()
        self.head_dim = cfg.head_dim
        self.norm = nn.Softmax(dim=-1)
        if SpectralHead.basis is None:
            SpectralHead.basis = dct_basis(cfg.dct["maxN"], cfg.dct["maxM"]).to(cfg.device)

    def forward(self, q, k, v, mask):
        root4 = math.sqrt(math.sqrt(self.head_dim))
        keep = mask[:, None, :, None]
        q = q / root4
        k = k / root4 * keep          # both factors together give 1/sqrt(head_dim)
        q = torch.matmul(self.basis, q)
        k = torch.matmul(self.basis, k)
        v = torch.matmul(self.basis, v * keep)
        # (bs, h, m, d) x (bs, h, d, m) -> (bs, h, m, m)
        energy = torch.matmul(q, k.transpose(-2, -1))
        weights = self.norm(energy)
        # back from the m coefficients to the n positions
        return torch.matmul(torch.matmul(self.basis.t(), weights), v)
