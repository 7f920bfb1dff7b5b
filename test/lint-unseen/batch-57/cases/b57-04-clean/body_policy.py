# case: b57-04-clean
# modelled-on: udaygirish/interview_challenge_sufadv https://github.com/udaygirish/interview_challenge_sufadv/commit/498a595735d036ccfbb5cade112f489f79ac1abf
# label: correct
# class: clean
# pattern: a Body-Transformer-style policy for a robot arm with one token per joint (a folder: the arm's 0/1 adjacency matrix, a hand-written multi-head attention that fills scores where the visibility matrix is 0 with -inf, and the BoT-Mix policy that alternates graph-masked layers, given eye + adjacency cast to bool, with unmasked layers)
# why: correct: the visibility matrix is identity plus adjacency, True where a joint may attend, and the attention fills `visible == 0`, the blocked pairs, with -inf, so the polarity matches; the identity keeps every joint's own key, so no row is emptied; the scores are divided by sqrt(d_head) and the softmax is over the last (key) axis
# looks-like: ATT002, ATT007
# source: https://github.com/udaygirish/interview_challenge_sufadv https://github.com/udaygirish/interview_challenge_sufadv/commit/498a595735d036ccfbb5cade112f489f79ac1abf lib/model_kvcache.py
import math

import torch
from torch import nn

from body_graph import arm_adjacency
from graph_attention import GraphMaskedAttention


class JointEncoding(nn.Module):
    def __init__(self, dim: int, max_nodes: int = 64):
        super().__init__()
        pos = torch.arange(max_nodes).float()[:, None]
        div = torch.exp(torch.arange(0, dim, 2).float() * (-math.log(10000.0) / dim))
        table = torch.zeros(max_nodes, dim)
        table[:, 0::2], table[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
        self.register_buffer("table", table)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.table[: x.shape[1]]


class MixLayer(nn.Module):
    def __init__(self, dim: int, heads: int, ff: int, p: float):
        super().__init__()
        self.attn = GraphMaskedAttention(dim, heads, p)
        self.ff = nn.Sequential(nn.Linear(dim, ff), nn.ReLU(), nn.Dropout(p), nn.Linear(ff, dim))
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.drop = nn.Dropout(p)

    def forward(self, x, visible=None):
        x = self.n1(x + self.drop(self.attn(x, visible)))
        return self.n2(x + self.drop(self.ff(x)))


class BodyMixPolicy(nn.Module):
    """Even layers see only the kinematic neighbours of a joint, odd layers see every joint."""

    def __init__(self, n_joints: int, dim: int = 64, heads: int = 4, depth: int = 4, ff: int = 256, p: float = 0.1):
        super().__init__()
        self.embed = nn.Linear(1, dim)
        self.position = JointEncoding(dim)
        self.layers = nn.ModuleList(MixLayer(dim, heads, ff, p) for _ in range(depth))
        self.readout = nn.Linear(dim, 1)
        self.register_buffer("adjacency", arm_adjacency(n_joints))

    def visibility(self, n: int) -> torch.Tensor:
        return (torch.eye(n, device=self.adjacency.device) + self.adjacency[:n, :n]).bool()

    def forward(self, joints: torch.Tensor) -> torch.Tensor:
        """joints: (B, n_joints, 1) current joint angles (last entry: gripper opening)."""
        x = self.position(self.embed(joints))
        visible = self.visibility(x.shape[1])
        for depth, layer in enumerate(self.layers):
            x = layer(x, visible if depth % 2 == 0 else None)
        return self.readout(x).squeeze(-1)
