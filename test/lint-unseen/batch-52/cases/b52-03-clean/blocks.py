# case: b52-03-clean
# modelled-on: TWK2022/TimeSeriesForecasting https://github.com/TWK2022/TimeSeriesForecasting/commit/abbfc2559dbe069967d104cedc78ad18bc89953f
# label: correct
# class: clean
# pattern: a folder: attention layers of a multivariate forecaster whose tokens are the input variables (each variable's whole history embedded as one token); the layers take (batch, tokens, width); plain multi-head attention and grouped-query attention store divisor = sqrt(width // heads) in the constructor, build the scores as matmul(q, k.permute(0, 1, 3, 2)) / divisor and normalise with an nn.Softmax(dim=-1) module created in __init__; grouped-query keys and values are projected to width // group and repeated group times along the head axis; a latent variant wraps the plain layer at a narrower latent width; the model (other file) stacks two grouped-query blocks after a rotary table over the variable axis
# why: correct: every head has width // heads channels (grouped-query keys: (width // group) / (heads // group) = width // heads), so sqrt(width // heads) is sqrt(d_k); in the latent variant the inner layer is built with the latent width and its own divisor sqrt(latent // heads), which is that layer's head size; permute(0, 1, 3, 2) on (batch, heads, tokens, d) swaps the last two axes, the key transpose the product needs; the softmax module normalises over the key axis; repeating the kv heads group times gives each query head one shared key/value head, a valid grouping
# looks-like: ATT001, ATT003, ATT004, ATT005
# source: https://github.com/TWK2022/TimeSeriesForecasting https://github.com/TWK2022/TimeSeriesForecasting/commit/abbfc2559dbe069967d104cedc78ad18bc89953f model/layer.py
import math

import torch


class RMSNorm(torch.nn.Module):
    def __init__(self, width):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(width))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6).type_as(x) * self.weight


class RotaryTable(torch.nn.Module):
    def __init__(self, tokens, width):
        super().__init__()
        pos = torch.arange(tokens).unsqueeze(1).repeat(1, width // 2)
        freq = torch.pow(10000, torch.arange(0, width, 2) / width)
        angle = torch.cat([pos / freq, pos / freq], dim=1)
        self.register_buffer("sin", torch.sin(angle), persistent=False)
        self.register_buffer("cos", torch.cos(angle), persistent=False)

    def forward(self, x):
        half = x.shape[-1] // 2
        rotated = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
        return rotated * self.sin.type_as(x) + x * self.cos.type_as(x)


class MultiHeadAttention(torch.nn.Module):
    def __init__(self, width, heads=8, dropout=0.2):
        super().__init__()
        assert width % heads == 0
        self.heads = heads
        self.divisor = math.sqrt(width // heads)
        self.wq = torch.nn.Linear(width, width, bias=False)
        self.wk = torch.nn.Linear(width, width, bias=False)
        self.wv = torch.nn.Linear(width, width, bias=False)
        self.softmax = torch.nn.Softmax(dim=-1)
        self.drop = torch.nn.Dropout(dropout)
        self.out = torch.nn.Linear(width, width)

    def forward(self, q_in, k_in, v_in):
        b, n, width = q_in.shape
        m = k_in.shape[1]
        q = self.wq(q_in).reshape(b, n, self.heads, -1).permute(0, 2, 1, 3)
        k = self.wk(k_in).reshape(b, m, self.heads, -1).permute(0, 2, 1, 3)
        v = self.wv(v_in).reshape(b, m, self.heads, -1).permute(0, 2, 1, 3)
        att = torch.matmul(q, k.permute(0, 1, 3, 2)) / self.divisor
        att = self.drop(self.softmax(att))
        y = torch.matmul(att, v).permute(0, 2, 1, 3).reshape(b, n, width)
        return self.out(y)


class GroupedQueryAttention(torch.nn.Module):
    def __init__(self, width, heads=8, group=4, dropout=0.2):
        super().__init__()
        assert width % heads == 0 and heads % group == 0
        self.heads = heads
        self.group = group
        self.divisor = math.sqrt(width // heads)
        self.wq = torch.nn.Linear(width, width, bias=False)
        self.wk = torch.nn.Linear(width, width // group, bias=False)
        self.wv = torch.nn.Linear(width, width // group, bias=False)
        self.softmax = torch.nn.Softmax(dim=-1)
        self.drop = torch.nn.Dropout(dropout)
        self.out = torch.nn.Linear(width, width)

    def forward(self, q_in, k_in, v_in):
        b, n, width = q_in.shape
        m = k_in.shape[1]
        kv_heads = self.heads // self.group
        q = self.wq(q_in).reshape(b, n, self.heads, -1).permute(0, 2, 1, 3)
        k = self.wk(k_in).reshape(b, m, kv_heads, -1).permute(0, 2, 1, 3).repeat(1, self.group, 1, 1)
        v = self.wv(v_in).reshape(b, m, kv_heads, -1).permute(0, 2, 1, 3).repeat(1, self.group, 1, 1)
        att = torch.matmul(q, k.permute(0, 1, 3, 2)) / self.divisor
        att = self.drop(self.softmax(att))
        y = torch.matmul(att, v).permute(0, 2, 1, 3).reshape(b, n, width)
        return self.out(y)


class LatentAttention(torch.nn.Module):
    def __init__(self, width, latent, heads=8, dropout=0.2):
        super().__init__()
        self.down = torch.nn.Linear(width, latent, bias=False)
        self.inner = MultiHeadAttention(latent, heads, dropout)
        self.up = torch.nn.Linear(latent, width, bias=False)

    def forward(self, x):
        z = self.down(x)
        return self.up(self.inner(z, z, z))
