from typing import Callable

import torch
from torch import nn


class LinearAttention(nn.Module):
    """Kernelised attention (Katharopoulos et al. 2020): softmax(q k^T) is replaced by
    phi(q) phi(k)^T, normalised per query by phi(q) . sum_j phi(k_j).

    q, k: [B, T, H, D], v: [B, T, H, M] -> [B, Tq, H, M]
    """

    def __init__(self, feature_map: Callable, eps: float = 1e-6):
        super().__init__()
        self.feature_map = feature_map
        self.eps = eps
        self.k_sum = None
        self.kv_sum = None

    def reset_cache(self):
        self.k_sum = None
        self.kv_sum = None

    def forward(self, q, k, v, mask=None, **kwargs):
        q, k = self.feature_map(q), self.feature_map(k)

        k_sum = k.sum(dim=1)  # [B, H, D]
        if not self.training and self.k_sum is not None:
            k_sum = k_sum + self.k_sum
        z = 1.0 / (torch.einsum("bthd,bhd->bth", q, k_sum) + self.eps)

        kv_sum = torch.einsum("bthd,bthm->bhdm", k, v)  # sum_j k_j (x) v_j
        if not self.training and self.kv_sum is not None:
            kv_sum = kv_sum + self.kv_sum
        if not self.training:
            self.k_sum, self.kv_sum = k_sum, kv_sum
        return torch.einsum("bthd,bhdm,bth->bthm", q, kv_sum, z)


class CausalLinearSelfAttention(LinearAttention):
    """Each query i only sees keys 0..i: running sums over the time axis."""

    def forward(self, q, k, v, mask=None, **kwargs):
        q, k = self.feature_map(q), self.feature_map(k)
        k_sum = k.cumsum(dim=1)  # [B, T, H, D]
        z = 1.0 / (torch.einsum("bthd,bthd->bth", q, k_sum) + self.eps)
        kv_sum = torch.einsum("bthd,bthm->bthdm", k, v).cumsum(dim=1)
        return torch.einsum("bthd,bthdm,bth->bthm", q, kv_sum, z)
