# case: t34aa-11-clean
# modelled-on: Jamie-Stirling/RetNet https://github.com/Jamie-Stirling/RetNet/commit/a5841a3ebffd181c7ec1d964b46060519df4b6c8
# label: correct
# class: clean
# pattern: a from-scratch Retentive Network (Sun et al. 2023): per-head retention `(Q @ K.permute(0, 2, 1)) * D @ V` with no softmax and no 1/sqrt(d), where D is a causal decay matrix `gamma ** (n - m) * (n >= m).float()` whose NaN entries (inf * 0 above the diagonal) are zeroed by `D[D != D] = 0`; q and k rotated and length-scaled by an xPos module in another file; a recurrent form `s_n = gamma * s_{n-1} + K^T V`, `Q @ s_n`; heads concatenated, GroupNorm per head, swish gate
# why: correct: retention has no softmax by design, so the 0/1 causal factor multiplied into the decay matrix is the whole mask and is exact (masked entries contribute nothing); the missing 1/sqrt(d) is absorbed by the per-head GroupNorm that follows, which is invariant to a constant scale of a head's output; `permute(0, 2, 1)` of 3-D keys is K^T; `D[D != D] = 0` replaces NaN, not a fill of scores; the recurrent form carries the same gamma decay as D
# looks-like: ATT003, ATT005, ATT006, ATT007
# source: https://github.com/Jamie-Stirling/RetNet https://github.com/Jamie-Stirling/RetNet/commit/a5841a3ebffd181c7ec1d964b46060519df4b6c8 src/retention.py
import math

import torch
import torch.nn as nn

from retnet.xpos import XPOS


class SimpleRetention(nn.Module):
    def __init__(self, hidden_size, gamma, head_size=None, double_v_dim=False):
        super().__init__()
        self.hidden_size = hidden_size
        head_size = hidden_size if head_size is None else head_size
        self.head_size = head_size
        self.v_dim = head_size * 2 if double_v_dim else head_size
        self.gamma = gamma

        self.W_Q = nn.Parameter(torch.randn(hidden_size, head_size) / hidden_size)
        self.W_K = nn.Parameter(torch.randn(hidden_size, head_size) / hidden_size)
        self.W_V = nn.Parameter(torch.randn(hidden_size, self.v_dim) / hidden_size)
        self.xpos = XPOS(head_size)

    def forward(self, X):
        """Parallel form. X: (batch, seq, hidden)."""
        seq = X.shape[1]
        D = self._get_D(seq).to(self.W_Q.device)

        Q = self.xpos(X @ self.W_Q)
        K = self.xpos(X @ self.W_K, downscale=True)
        V = X @ self.W_V

        ret = (Q @ K.permute(0, 2, 1)) * D.unsqueeze(0)
        return ret @ V

    def forward_recurrent(self, x_n, s_prev, n):
        """Recurrent form. x_n: (batch, 1, hidden); s_prev: (batch, head_size, v_dim)."""
        Q = self.xpos(x_n @ self.W_Q, n + 1)
        K = self.xpos(x_n @ self.W_K, n + 1, downscale=True)
        V = x_n @ self.W_V
        s_n = self.gamma * s_prev + (K.transpose(-1, -2) @ V)
        return Q @ s_n, s_n

    def _get_D(self, seq):
        n = torch.arange(seq).unsqueeze(1)
        m = torch.arange(seq).unsqueeze(0)
        # gamma ** (n - m) on and below the diagonal, 0 above it
        D = (self.gamma ** (n - m)) * (n >= m).float()
        # gamma ** (negative) overflows to inf above the diagonal and inf * 0 is NaN
        D[D != D] = 0
        return D


class MultiScaleRetention(nn.Module):
    def __init__(self, hidden_size, heads, double_v_dim=False):
        super().__init__()
        assert hidden_size % heads == 0, "hidden_size must be divisible by heads"
        self.hidden_size = hidden_size
        self.v_dim = hidden_size * 2 if double_v_dim else hidden_size
        self.heads = heads
        self.head_size = hidden_size // heads
        self.gammas = (1 - torch.exp(torch.linspace(math.log(1 / 32), math.log(1 / 512), heads))).detach().cpu().tolist()

        self.swish = lambda x: x * torch.sigmoid(x)
        self.W_G = nn.Parameter(torch.randn(hidden_size, self.v_dim) / hidden_size)
        self.W_O = nn.Parameter(torch.randn(self.v_dim, hidden_size) / hidden_size)
        self.group_norm = nn.GroupNorm(heads, self.v_dim)
        self.retentions = nn.ModuleList(
            [SimpleRetention(hidden_size, g, self.head_size, double_v_dim) for g in self.gammas]
        )

    def forward(self, X):
        Y = torch.cat([self.retentions[i](X) for i in range(self.heads)], dim=2)
        shape = Y.shape
        Y = self.group_norm(Y.reshape(-1, self.v_dim)).reshape(shape)
        return (self.swish(X @ self.W_G) * Y) @ self.W_O

    def forward_recurrent(self, x_n, s_prev_all, n):
        Y, states = [], []
        for i in range(self.heads):
            y, s = self.retentions[i].forward_recurrent(x_n, s_prev_all[i], n)
            Y.append(y)
            states.append(s)
        Y = torch.cat(Y, dim=2)
        shape = Y.shape
        Y = self.group_norm(Y.reshape(-1, self.v_dim)).reshape(shape)
        return (self.swish(x_n @ self.W_G) * Y) @ self.W_O, states
