# case: b59-07-clean
# modelled-on: jonathanhestroffer/set-transformer-modelnet40 https://github.com/jonathanhestroffer/set-transformer-modelnet40/commit/dda61874785ae8ca302930490a9f5f1d2a237744
# label: correct
# class: clean
# pattern: a Set Transformer classifying ModelNet40 point clouds (a folder: widths and head counts come from `hparams.py`): a multihead attention block with a query projection and a fused key/value projection, heads split with view(B, L, heads, head_dim) and transpose(1, 2), scores divided by sqrt(head_dim), softmax over the last axis; induced set attention (learned inducing points attend to the points, then the points attend to them) and pooling by learned seeds reuse it with different query and key sets
# why: correct: the scale is the per-head width (128 / 4 = 32), keys are transposed on their last two axes only, and the softmax runs over the key axis, whose length differs from the queries' in the inducing and pooling blocks (16 or 1 queries against 100 points); every set has exactly the sampled number of points, so no mask is needed
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/jonathanhestroffer/set-transformer-modelnet40 https://github.com/jonathanhestroffer/set-transformer-modelnet40/commit/dda61874785ae8ca302930490a9f5f1d2a237744 models/nets.py
import math

import torch
import torch.nn as nn

from hparams import NETWORK


class AttentionBlock(nn.Module):
    """H = LN(X + MHA(X, Y, Y)); out = LN(H + rFF(H))."""

    def __init__(self, width: int, heads: int, layer_norm: bool = False):
        super().__init__()
        assert width % heads == 0
        self.heads = heads
        self.head_dim = width // heads
        self.to_q = nn.Linear(width, width)
        self.to_kv = nn.Linear(width, 2 * width)
        self.to_out = nn.Linear(width, width)
        self.row_ff = nn.Sequential(nn.Linear(width, width), nn.ReLU(), nn.Linear(width, width))
        self.norm_a = nn.LayerNorm(width) if layer_norm else nn.Identity()
        self.norm_b = nn.LayerNorm(width) if layer_norm else nn.Identity()

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        b, n_x, width = x.shape
        n_y = y.shape[1]
        key, value = self.to_kv(y).chunk(2, dim=-1)
        q = self.to_q(x).view(b, n_x, self.heads, self.head_dim).transpose(1, 2)
        k = key.view(b, n_y, self.heads, self.head_dim).transpose(1, 2)
        v = value.view(b, n_y, self.heads, self.head_dim).transpose(1, 2)

        logits = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        weights = torch.softmax(logits, dim=-1)
        mixed = torch.matmul(weights, v).transpose(1, 2).contiguous().view(b, n_x, width)

        h = self.norm_a(x + self.to_out(mixed))
        return self.norm_b(h + self.row_ff(h))


class SetSelfAttention(nn.Module):
    def __init__(self, width: int, heads: int, layer_norm: bool = False):
        super().__init__()
        self.block = AttentionBlock(width, heads, layer_norm)

    def forward(self, x):
        return self.block(x, x)


class InducedSetAttention(nn.Module):
    def __init__(self, width: int, heads: int, n_inducing: int, layer_norm: bool = False):
        super().__init__()
        self.to_inducing = AttentionBlock(width, heads, layer_norm)
        self.from_inducing = AttentionBlock(width, heads, layer_norm)
        self.inducing = nn.Parameter(torch.empty(1, n_inducing, width))
        nn.init.xavier_uniform_(self.inducing)

    def forward(self, x):
        summary = self.to_inducing(self.inducing.expand(x.shape[0], -1, -1), x)
        return self.from_inducing(x, summary)


class SeedPooling(nn.Module):
    def __init__(self, width: int, heads: int, n_seeds: int = 1, layer_norm: bool = False):
        super().__init__()
        self.block = AttentionBlock(width, heads, layer_norm)
        self.seeds = nn.Parameter(torch.empty(1, n_seeds, width))
        nn.init.xavier_uniform_(self.seeds)

    def forward(self, x):
        return self.block(self.seeds.expand(x.shape[0], -1, -1), x)


class PointSetClassifier(nn.Module):
    def __init__(self, p=NETWORK):
        super().__init__()
        w, h, ln = p["width"], p["heads"], p["use_layer_norm"]
        self.embed = nn.Linear(p["in_features"], w)
        if p["inducing_points"] is None:
            layers = [SetSelfAttention(w, h, ln) for _ in range(p["encoder_layers"])]
        else:
            layers = [InducedSetAttention(w, h, p["inducing_points"], ln) for _ in range(p["encoder_layers"])]
        self.encoder = nn.Sequential(*layers)
        self.decoder = nn.Sequential(nn.Dropout(), SeedPooling(w, h, p["seeds"]), SetSelfAttention(w, h, ln),
                                     SetSelfAttention(w, h, ln), nn.Dropout())
        self.head = nn.Linear(w, p["n_classes"])

    def forward(self, points: torch.Tensor) -> torch.Tensor:
        x = self.decoder(self.encoder(self.embed(points)))
        if x.shape[1] == 1:
            x = x.squeeze(1)
        return self.head(x)
