# case: b55-08-clean
# modelled-on: ArashM0z/attention-pointer-network https://github.com/ArashM0z/attention-pointer-network/commit/20b09d8dcef225e9ba72421e672332a8277b4b03
# label: correct
# class: clean
# pattern: a Kool-style attention model for the travelling-salesman problem (a folder: the encoder and the pointer decoder, which builds a context query from the graph mean and the last city, glimpses the cities through nn.MultiheadAttention with key_padding_mask set to the visited mask, scores every city with a single-head dot product divided by sqrt(d), clips the scores with 10 * tanh and fills visited cities with -inf; and the environment, whose feasibility mask is True on visited cities, with the greedy rollout that feeds it back at every step and takes a softmax of the scores)
# why: correct: the environment's mask is True where a city may not be chosen, which is what key_padding_mask (True = ignore) and masked_fill(mask, -inf) both want; the pointer has one head of width d, so 1/sqrt(d) is its per-head scale; the -inf fill comes after the tanh clipping, so it is not squashed to -10; a tour always leaves at least one unvisited city until the last step, so no row is fully masked; the encoder's heads are scaled by sqrt(d // h)
# looks-like: ATT002, ATT004, ATT006, ATT007
# source: https://github.com/ArashM0z/attention-pointer-network https://github.com/ArashM0z/attention-pointer-network/commit/20b09d8dcef225e9ba72421e672332a8277b4b03 src/ampn/decoder.py
import math

import torch
from torch import Tensor, nn


class SelfAttention(nn.Module):
    def __init__(self, d: int, h: int) -> None:
        super().__init__()
        assert d % h == 0
        self.h, self.dh = h, d // h
        self.to_qkv = nn.Linear(d, 3 * d, bias=False)
        self.to_out = nn.Linear(d, d, bias=False)

    def forward(self, x: Tensor) -> Tensor:
        b, n, d = x.shape
        q, k, v = self.to_qkv(x).view(b, n, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        w = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(self.dh), dim=-1)
        return self.to_out((w @ v).transpose(1, 2).reshape(b, n, d))


class GraphEncoder(nn.Module):
    """Three attention layers with batch norm over the feature axis, as in the attention model paper."""

    def __init__(self, in_dim: int = 2, d: int = 128, h: int = 8, layers: int = 3) -> None:
        super().__init__()
        self.embed = nn.Linear(in_dim, d)
        self.attn = nn.ModuleList([SelfAttention(d, h) for _ in range(layers)])
        self.bn1 = nn.ModuleList([nn.BatchNorm1d(d) for _ in range(layers)])
        self.ff = nn.ModuleList([nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d)) for _ in range(layers)])
        self.bn2 = nn.ModuleList([nn.BatchNorm1d(d) for _ in range(layers)])

    def forward(self, coords: Tensor) -> Tensor:
        h = self.embed(coords)
        for attn, bn1, ff, bn2 in zip(self.attn, self.bn1, self.ff, self.bn2):
            h = bn1((h + attn(h)).transpose(1, 2)).transpose(1, 2)
            h = bn2((h + ff(h)).transpose(1, 2)).transpose(1, 2)
        return h


class CityPointer(nn.Module):
    def __init__(self, d: int = 128, h: int = 8, clip: float = 10.0) -> None:
        super().__init__()
        self.clip = clip
        self.d = d
        self.context = nn.Linear(2 * d, d, bias=False)
        self.glimpse = nn.MultiheadAttention(d, h, batch_first=True)
        self.wq = nn.Linear(d, d)
        self.wk = nn.Linear(d, d)

    def forward(self, cities: Tensor, last_city: Tensor, visited: Tensor) -> Tensor:
        ctx = self.context(torch.cat([cities.mean(dim=1), last_city], dim=-1))[:, None]
        ctx, _ = self.glimpse(ctx, cities, cities, key_padding_mask=visited)
        scores = (self.wq(ctx) @ self.wk(cities).transpose(-1, -2)).squeeze(1) / math.sqrt(self.d)
        scores = self.clip * torch.tanh(scores)
        return scores.masked_fill(visited, float("-inf"))
