# case: t28u-06-clean
# modelled-on: kedarghule/Spatio-Temporal-Network-Forecasting https://github.com/kedarghule/Spatio-Temporal-Network-Forecasting/commit/5a24eadcf8bdbd2b58387a19251a4c4245b4808b
# label: correct
# class: clean
# pattern: a course project's GMAN (graph multi-attention network, traffic forecasting on METR-LA), ported from TF: the heads are stacked on the batch axis with torch.cat(torch.split(q, size, dim=-1), dim=0); spatial attention splits with self._K, the temporal one with self._d; spatial scores are q @ k.transpose(2, 3) over nodes, temporal scores permute q to (K*B, N, T, d) and the keys straight to (K*B, N, d, T) with permute(0, 2, 3, 1) and take matmul(q, k) with no further transpose; every branch divides by self._d ** 0.5 and softmaxes over dim=-1; the temporal branch keeps the lower triangle with torch.where(mask, attention, -2**15 + 1); the training script builds GMAN with K = 8 heads of d = 8
# why: correct: torch.split's second argument is a chunk width, so splitting the K*d = 64 features by self._K gives chunks of width K; the workspace builds K = d = 8, so every chunk is one head of width d and 1/sqrt(d) is the per-head scale in all three attentions (with K != d the spatial and transform branches would scale chunks of width K by 1/sqrt(d)); the temporal keys are already (.., d, T), so matmul(q, k) contracts the head features; the causal mask keeps past steps (True = keep) and the fill is finite in float32
# looks-like: ATT002, ATT004, ATT005
# source: https://github.com/kedarghule/Spatio-Temporal-Network-Forecasting https://github.com/kedarghule/Spatio-Temporal-Network-Forecasting/commit/5a24eadcf8bdbd2b58387a19251a4c4245b4808b GMAN/gman_model.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from .layers import FullyConnected


class SpatialAttention(nn.Module):
    def __init__(self, K, d, bn_decay):
        super().__init__()
        D = K * d
        self._K, self._d = K, d
        self._fc_q = FullyConnected(2 * D, D, F.relu, bn_decay)
        self._fc_k = FullyConnected(2 * D, D, F.relu, bn_decay)
        self._fc_v = FullyConnected(2 * D, D, F.relu, bn_decay)
        self._fc = FullyConnected(D, D, F.relu, bn_decay)

    def forward(self, X, STE):
        # X, STE: (B, steps, nodes, K*d)
        batch_size = X.shape[0]
        X = torch.cat((X, STE), dim=-1)
        query = torch.cat(torch.split(self._fc_q(X), self._K, dim=-1), dim=0)  # (K*B, T, N, d)
        key = torch.cat(torch.split(self._fc_k(X), self._K, dim=-1), dim=0)
        value = torch.cat(torch.split(self._fc_v(X), self._K, dim=-1), dim=0)
        attention = torch.matmul(query, key.transpose(2, 3))  # (K*B, T, N, N)
        attention /= self._d ** 0.5
        attention = F.softmax(attention, dim=-1)
        X = torch.matmul(attention, value)
        X = torch.cat(torch.split(X, batch_size, dim=0), dim=-1)  # (B, T, N, K*d)
        return self._fc(X)


class TemporalAttention(nn.Module):
    def __init__(self, K, d, bn_decay, mask=True):
        super().__init__()
        D = K * d
        self._K, self._d, self._mask = K, d, mask
        self._fc_q = FullyConnected(2 * D, D, F.relu, bn_decay)
        self._fc_k = FullyConnected(2 * D, D, F.relu, bn_decay)
        self._fc_v = FullyConnected(2 * D, D, F.relu, bn_decay)
        self._fc = FullyConnected(D, D, F.relu, bn_decay)

    def forward(self, X, STE):
        batch_size, num_step, num_nodes = X.shape[0], X.shape[1], X.shape[2]
        X = torch.cat((X, STE), dim=-1)
        query = torch.cat(torch.split(self._fc_q(X), self._d, dim=-1), dim=0)
        key = torch.cat(torch.split(self._fc_k(X), self._d, dim=-1), dim=0)
        value = torch.cat(torch.split(self._fc_v(X), self._d, dim=-1), dim=0)
        query = query.permute(0, 2, 1, 3)  # (K*B, N, T, d)
        key = key.permute(0, 2, 3, 1)  # (K*B, N, d, T)
        value = value.permute(0, 2, 1, 3)
        attention = torch.matmul(query, key)  # (K*B, N, T, T)
        attention /= self._d ** 0.5
        if self._mask:
            keep = torch.tril(torch.ones(num_step, num_step, device=X.device))
            keep = keep[None, None].repeat(self._K * batch_size, num_nodes, 1, 1).to(torch.bool)
            condition = torch.FloatTensor([-(2 ** 15) + 1]).to(X.device)
            attention = torch.where(keep, attention, condition)
        attention = F.softmax(attention, dim=-1)
        X = torch.matmul(attention, value).permute(0, 2, 1, 3)
        X = torch.cat(torch.split(X, batch_size, dim=0), dim=-1)
        return self._fc(X)


class TransformAttention(nn.Module):
    """Predicted steps (queries from STE_pred) attend over historical steps (keys from STE_his)."""

    def __init__(self, K, d, bn_decay):
        super().__init__()
        D = K * d
        self._K, self._d = K, d
        self._fc_q = FullyConnected(D, D, F.relu, bn_decay)
        self._fc_k = FullyConnected(D, D, F.relu, bn_decay)
        self._fc_v = FullyConnected(D, D, F.relu, bn_decay)
        self._fc = FullyConnected(D, D, F.relu, bn_decay)

    def forward(self, X, STE_his, STE_pred):
        batch_size = X.shape[0]
        query = torch.cat(torch.split(self._fc_q(STE_pred), self._K, dim=-1), dim=0).permute(0, 2, 1, 3)
        key = torch.cat(torch.split(self._fc_k(STE_his), self._K, dim=-1), dim=0).permute(0, 2, 3, 1)
        value = torch.cat(torch.split(self._fc_v(X), self._K, dim=-1), dim=0).permute(0, 2, 1, 3)
        attention = torch.matmul(query, key)  # (K*B, N, T_pred, T_his)
        attention /= self._d ** 0.5
        attention = F.softmax(attention, dim=-1)
        X = torch.matmul(attention, value).permute(0, 2, 1, 3)
        X = torch.cat(torch.split(X, batch_size, dim=0), dim=-1)
        return self._fc(X)
