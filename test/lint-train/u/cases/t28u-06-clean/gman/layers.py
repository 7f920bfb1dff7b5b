import torch
import torch.nn as nn
import torch.nn.functional as F


class Conv2D(nn.Module):
    """1x1 convolution over (batch, steps, nodes, features), applied per node and step."""

    def __init__(self, input_dims, output_dims, activation=F.relu, bn_decay=None, use_bias=True):
        super().__init__()
        self._activation = activation
        self._conv2d = nn.Conv2d(input_dims, output_dims, kernel_size=(1, 1), bias=use_bias)
        self._batch_norm = nn.BatchNorm2d(output_dims, momentum=bn_decay)
        torch.nn.init.xavier_uniform_(self._conv2d.weight)

    def forward(self, X):
        X = self._batch_norm(self._conv2d(X.permute(0, 3, 2, 1)))
        if self._activation is not None:
            X = self._activation(X)
        return X.permute(0, 3, 2, 1)


class FullyConnected(nn.Module):
    def __init__(self, input_dims, units, activations, bn_decay, use_bias=True):
        super().__init__()
        if isinstance(units, int):
            units, input_dims, activations = [units], [input_dims], [activations]
        self._convs = nn.ModuleList(
            [Conv2D(i, u, a, bn_decay, use_bias) for i, u, a in zip(input_dims, units, activations)]
        )

    def forward(self, X):
        for conv in self._convs:
            X = conv(X)
        return X


class GatedFusion(nn.Module):
    def __init__(self, D, bn_decay):
        super().__init__()
        self._xs = FullyConnected(D, D, None, bn_decay, use_bias=False)
        self._xt = FullyConnected(D, D, None, bn_decay)
        self._h = FullyConnected([D, D], [D, D], [F.relu, None], bn_decay)

    def forward(self, HS, HT):
        z = torch.sigmoid(self._xs(HS) + self._xt(HT))
        return self._h(z * HS + (1 - z) * HT)
