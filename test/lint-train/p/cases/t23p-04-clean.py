# case: t23p-04-clean
# modelled-on: souheib1/Point-Transformer https://github.com/souheib1/Point-Transformer/commit/2ac381a4c5cc523f35e731a85f17baae1ccc3cb5
# label: correct
# class: clean
# pattern: a Point Transformer layer on k nearest neighbours: keys and values are gathered per point into (B, M, K, F) with a helper, the relation MLP gamma(q[:, :, None] - k + pos) gives per-channel logits (B, M, K, F), a softmax over dim=-2 of those logits divided by np.sqrt(k.size(-1)), and an einsum 'bmnf,bmnf->bmf' sums over the neighbours
# why: correct: in (B, M, K, F) the neighbour (key) axis is -2 and the last axis is the feature channel of vector attention, so dim=-2 normalises each channel over the k neighbours, which the einsum then sums; the author's extra 1/sqrt(F) temperature (F the per-point width, a single head) is a deliberate stabiliser, applied before the softmax
# looks-like: ATT001, ATT004
# source: https://github.com/souheib1/Point-Transformer https://github.com/souheib1/Point-Transformer/commit/2ac381a4c5cc523f35e731a85f17baae1ccc3cb5 components/point_transformer_layer.py
import numpy as np
import torch
import torch.nn as nn


def gather_points(points, idx):
    """points (B, N, C), idx (B, M, K) -> (B, M, K, C)."""
    shape = idx.size()
    flat = idx.reshape(shape[0], -1)
    out = torch.gather(points, 1, flat[..., None].expand(-1, -1, points.size(-1)))
    return out.reshape(*shape, -1)


class PointTransformerLayer(nn.Module):
    def __init__(self, dim_in, dim_out, k=16):
        super().__init__()
        self.k = k
        self.fc_in = nn.Linear(dim_in, dim_out)
        self.fc_out = nn.Linear(dim_out, dim_in)
        self.phi = nn.Linear(dim_out, dim_out, bias=False)  # queries
        self.psi = nn.Linear(dim_out, dim_out, bias=False)  # keys
        self.alpha = nn.Linear(dim_out, dim_out, bias=False)  # values
        self.gamma = nn.Sequential(nn.Linear(dim_out, dim_out), nn.ReLU(), nn.Linear(dim_out, dim_out))
        self.delta = nn.Sequential(nn.Linear(3, dim_out), nn.ReLU(), nn.Linear(dim_out, dim_out))

    def forward(self, xyz, feats):
        # xyz (B, N, 3), feats (B, N, dim_in)
        d2 = torch.sum((xyz[:, :, None] - xyz[:, None]) ** 2, dim=-1)
        knn = d2.argsort()[:, :, : self.k]  # (B, N, K)
        nbr_xyz = gather_points(xyz, knn)

        skip = feats
        x = self.fc_in(feats)
        q = self.phi(x)  # (B, N, F)
        k = gather_points(self.psi(x), knn)  # (B, N, K, F)
        v = gather_points(self.alpha(x), knn)
        pos = self.delta(xyz[:, :, None] - nbr_xyz)  # (B, N, K, F)

        logits = self.gamma(q[:, :, None] - k + pos)
        attn = torch.nn.functional.softmax(logits / np.sqrt(k.size(-1)), dim=-2)
        out = torch.einsum("bmnf,bmnf->bmf", attn, v + pos)
        return self.fc_out(out) + skip, attn
