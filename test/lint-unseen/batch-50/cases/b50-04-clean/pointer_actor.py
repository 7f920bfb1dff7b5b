# case: b50-04-clean
# modelled-on: ADEpigone/VRP_RL https://github.com/ADEpigone/VRP_RL/commit/9018669919880ab35dae5a5e3015a28eeb74dec1
# label: correct
# class: clean
# pattern: a folder: the transformer variant of a vehicle-routing actor; nodes are encoded by nn.TransformerEncoder over Fourier features (other file), a context vector (mean node, current node, spare load) is projected to a single query, and the pointer logits are (Q @ K^T).squeeze(1) / sqrt(D), clipped with C * tanh, filled with -inf where the feasibility helper (other file) returns True, and normalised with softmax over the nodes; there is no value projection, the distribution itself is the output
# why: correct: this is a single-head pointer (Kool et al. style) whose query and keys have width D, so 1/sqrt(D) is its 1/sqrt(d_k); the mask helper documents True = move not allowed and masked_fill sets exactly those logits to -inf; (B, 1, D) @ (B, D, N) gives (B, 1, N) and squeeze(1) leaves the node axis last, where the softmax runs; the helper always leaves the depot open when away from it, or any order that fits a full vehicle when at it, and the depot alone once all orders are served
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/ADEpigone/VRP_RL https://github.com/ADEpigone/VRP_RL/commit/9018669919880ab35dae5a5e3015a28eeb74dec1 model/TransformerActor.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from node_encoder import GraphNodeEncoder, fourier_features
from feasibility import infeasible_moves


class AttentionRouter(nn.Module):
    def __init__(self, width=128, heads=8, depth=3, ff=512, dropout=0.1, clip=10.0):
        super().__init__()
        self.width = width
        self.clip = clip
        self.encoder = GraphNodeEncoder(width, heads, depth, ff, dropout)
        self.load_in = nn.Linear(1, width)
        self.mix = nn.Linear(3 * width, width)
        self.q = nn.Linear(width, width, bias=False)
        self.k = nn.Linear(width, width, bias=False)

    def policy(self, coords, feats, at, demand, load):
        nodes = self.encoder(torch.cat([fourier_features(coords), feats], dim=-1))
        rows = torch.arange(coords.shape[0], device=coords.device)
        context = self.mix(torch.cat([nodes.mean(1), nodes[rows, at], self.load_in(feats[:, 0, 1:2])], dim=-1))

        query = self.q(context).unsqueeze(1)  # (B, 1, D)
        keys = self.k(nodes)  # (B, N, D)
        logits = (query @ keys.transpose(-2, -1)).squeeze(1) / math.sqrt(self.width)
        logits = self.clip * torch.tanh(logits)
        logits = logits.masked_fill(infeasible_moves(demand, load, at), float("-inf"))
        return F.softmax(logits, dim=-1)
