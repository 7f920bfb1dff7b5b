# case: b47-07-clean
# modelled-on: SCJedi/entropy-adaptive-kv-cache https://github.com/SCJedi/entropy-adaptive-kv-cache/commit/e38a643e8fb137864e04214e530b06c60725c687
# label: correct
# class: clean
# pattern: an experiment with a tiny CIFAR-10 ViT whose attention heads exchange messages after the attention: per head the usual scores Q @ K^T / sqrt(head_dim) and softmax over the key axis, then the per-head outputs (B, H, S, d) are mixed across heads by a diffusion matrix M = ((1 - a) I + a A)^R built from a row-normalised hypercube (or all-to-all) adjacency of the 8 heads, with a learnable a clamped to [0, 1], applied by einsum("ij,bjsd->bisd")
# why: correct: the softmax runs over the last axis of (B, H, S, S), the keys; the head mixing is a separate, intended step on the attention outputs (each row of A sums to 1, so M is a stochastic matrix over heads) and is not a normalisation of the attention weights; the scale is sqrt(head_dim) with head_dim = embed_dim // num_heads; image patches need no mask
# looks-like: ATT001, ATT004
# source: https://github.com/SCJedi/entropy-adaptive-kv-cache https://github.com/SCJedi/entropy-adaptive-kv-cache/commit/e38a643e8fb137864e04214e530b06c60725c687 python/experiments/multihead_cube_attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

GOLDEN = (1 + math.sqrt(5)) / 2
ROUNDS = 3  # diameter of the 3-cube

# heads are the 8 vertices of a cube, labelled by 3 bits; neighbours differ in one bit
CUBE = [[v ^ (1 << b) for b in range(3)] for v in range(8)]
COMPLETE = [[u for u in range(8) if u != v] for v in range(8)]


def transition_matrix(neighbours, n):
    a = torch.zeros(n, n)
    for i, row in enumerate(neighbours):
        a[i, row] = 1.0 / len(row)
    return a


class HeadGraphAttention(nn.Module):
    def __init__(self, dim, heads, graph=None, learn_mix=True):
        super().__init__()
        assert dim % heads == 0
        self.heads = heads
        self.dh = dim // heads
        self.wq = nn.Linear(dim, dim)
        self.wk = nn.Linear(dim, dim)
        self.wv = nn.Linear(dim, dim)
        self.wo = nn.Linear(dim, dim)
        self.temperature = math.sqrt(self.dh)
        if graph is None:
            self.graph = None
        else:
            self.register_buffer("graph", transition_matrix(graph, heads))
            mix = torch.tensor(1.0 / GOLDEN ** 2)
            if learn_mix:
                self.mix = nn.Parameter(mix)
            else:
                self.register_buffer("mix", mix)

    def split(self, t, b, s):
        return t.view(b, s, self.heads, self.dh).transpose(1, 2)

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.split(self.wq(x), b, s), self.split(self.wk(x), b, s), self.split(self.wv(x), b, s)
        att = torch.matmul(q, k.transpose(-2, -1)) / self.temperature
        att = F.softmax(att, dim=-1)
        y = torch.matmul(att, v)  # (b, heads, s, dh)

        if self.graph is not None:
            a = self.mix.clamp(0.0, 1.0)
            step = (1 - a) * torch.eye(self.heads, device=x.device) + a * self.graph
            diffuse = torch.linalg.matrix_power(step, ROUNDS)
            y = torch.einsum("ij,bjsd->bisd", diffuse, y)

        return self.wo(y.transpose(1, 2).reshape(b, s, d))


class Block(nn.Module):
    def __init__(self, dim, heads, graph=None):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = HeadGraphAttention(dim, heads, graph)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.ff(self.ln2(x))
