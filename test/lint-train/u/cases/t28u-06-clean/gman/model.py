import torch
import torch.nn as nn
import torch.nn.functional as F

from .attention import SpatialAttention, TemporalAttention, TransformAttention
from .layers import FullyConnected, GatedFusion


class STAttBlock(nn.Module):
    def __init__(self, K, d, bn_decay, mask):
        super().__init__()
        self._spatial = SpatialAttention(K, d, bn_decay)
        self._temporal = TemporalAttention(K, d, bn_decay, mask=mask)
        self._fusion = GatedFusion(K * d, bn_decay)

    def forward(self, X, STE):
        return X + self._fusion(self._spatial(X, STE), self._temporal(X, STE))


class GMAN(nn.Module):
    def __init__(self, L, K, d, num_his, bn_decay, steps_per_day, use_bias, mask):
        super().__init__()
        D = K * d
        self._num_his = num_his
        self._se = FullyConnected([D, D], [D, D], [F.relu, None], bn_decay, use_bias)
        self._te = FullyConnected([1, D], [D, D], [F.relu, None], bn_decay, use_bias)
        self._blocks1 = nn.ModuleList([STAttBlock(K, d, bn_decay, mask) for _ in range(L)])
        self._blocks2 = nn.ModuleList([STAttBlock(K, d, bn_decay, mask) for _ in range(L)])
        self._transform = TransformAttention(K, d, bn_decay)
        self._fc_in = FullyConnected([1, D], [D, D], [F.relu, None], bn_decay)
        self._fc_out = FullyConnected([D, D], [D, 1], [F.relu, None], bn_decay)

    def forward(self, X, SE, TE):
        # X: (B, num_his, nodes); SE: (nodes, D); TE: (B, num_his + num_pred)
        X = self._fc_in(X.unsqueeze(-1))
        STE = self._se(SE[None, None]) + self._te(TE[:, :, None, None])
        STE_his, STE_pred = STE[:, : self._num_his], STE[:, self._num_his :]
        for block in self._blocks1:
            X = block(X, STE_his)
        X = self._transform(X, STE_his, STE_pred)
        for block in self._blocks2:
            X = block(X, STE_pred)
        return torch.squeeze(self._fc_out(X), 3)
