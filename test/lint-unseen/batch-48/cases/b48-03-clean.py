# case: b48-03-clean
# modelled-on: daveredrum/3d-captioning https://github.com/daveredrum/3d-captioning/commit/b9eb18dc2c2202d106c94bad65b168202d1f41d6
# label: correct
# class: clean
# pattern: attention modules of a 3D-shape captioning model over voxel features laid out (batch, channels, positions): a soft attention of the decoder state over the positions (softmax over dim 1 of (batch, positions)), a SAGAN-style self-attention whose (batch, positions, positions) similarity is normalised over dim 1 and then multiplied from the right by the (batch, channels, positions) values, and a channel variant that normalises over dim 1 and transposes before multiplying
# why: correct: in the self-attention, s[b, i, j] = f_i . g_j and the softmax over dim 1 normalises over i for each output position j; `h @ weights` gives out[:, :, j] = sum_i h[:, :, i] * w[i, j], so each output position averages the values with weights that sum to one (the formulation of the SAGAN paper, which it cites); the channel variant transposes the column-normalised matrix before the product, so each output channel again gets weights summing to one over the input channels; the soft attention normalises over the positions; none of these is scaled dot-product attention, so no 1/sqrt(d) is expected
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/daveredrum/3d-captioning https://github.com/daveredrum/3d-captioning/commit/b9eb18dc2c2202d106c94bad65b168202d1f41d6 model/attn_components.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _uniform_init(module: nn.Module):
    for w in module.parameters():
        bound = 1.0 / math.sqrt(w.size(0))
        w.data.uniform_(-bound, bound)


class VoxelSoftAttention(nn.Module):
    """Decoder-state attention over flattened voxel positions."""

    def __init__(self, channels: int, hidden: int):
        super().__init__()
        self.proj_feat = nn.Linear(channels, hidden, bias=False)
        self.proj_state = nn.Linear(hidden, hidden, bias=False)
        self.energy = nn.Linear(hidden, 1, bias=False)
        _uniform_init(self)

    def forward(self, voxels: torch.Tensor, state: torch.Tensor) -> torch.Tensor:
        # voxels: (batch, channels, positions); state: (batch, hidden)
        feats = voxels.transpose(1, 2)                              # (batch, positions, channels)
        e = torch.tanh(self.proj_feat(feats) + self.proj_state(state)[:, None, :])
        scores = self.energy(e).squeeze(-1)                          # (batch, positions)
        return F.softmax(scores, dim=1)


class VoxelSelfAttention(nn.Module):
    """Spatial self-attention (SAGAN) and channel self-attention on voxel features."""

    def __init__(self, channels: int, hidden: int, positions: int, kind: str = "spatial"):
        super().__init__()
        self.kind = kind
        if kind == "spatial":
            self.f = nn.Linear(channels, hidden, bias=False)
            self.g = nn.Linear(channels, hidden, bias=False)
            self.h = nn.Linear(channels, channels, bias=False)
        else:
            self.f = nn.Linear(positions, hidden, bias=False)
            self.g = nn.Linear(positions, hidden, bias=False)
        _uniform_init(self)

    def forward(self, voxels: torch.Tensor):
        if self.kind == "spatial":
            x = voxels.permute(0, 2, 1).contiguous()                # (batch, positions, channels)
            f, g = self.f(x), self.g(x)                              # (batch, positions, hidden)
            values = self.h(x).transpose(1, 2).contiguous()          # (batch, channels, positions)
            sim = torch.bmm(f, g.transpose(1, 2))                    # (batch, positions, positions)
            weights = F.softmax(sim, dim=1)                          # over i, for each output j
            out = torch.bmm(values, weights)                         # (batch, channels, positions)
            return out, weights
        # channel attention: rows are channels
        f, g = self.f(voxels), self.g(voxels)                        # (batch, channels, hidden)
        sim = f.matmul(g.transpose(2, 1).contiguous())              # (batch, channels, channels)
        weights = F.softmax(sim, dim=1).transpose(2, 1).contiguous()
        out = weights.matmul(voxels)                                 # (batch, channels, positions)
        return out, weights


class TemporalPooling(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.proj = nn.Linear(hidden, hidden, bias=False)
        self.score = nn.Linear(hidden, 1, bias=False)

    def forward(self, states: torch.Tensor) -> torch.Tensor:
        # states: (batch, steps, hidden) -> weights over the steps, (batch, steps, 1)
        return F.softmax(self.score(self.proj(states)), dim=1)
