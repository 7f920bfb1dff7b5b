# case: b50-03-clean
# modelled-on: ADEpigone/VRP_RL https://github.com/ADEpigone/VRP_RL/commit/9018669919880ab35dae5a5e3015a28eeb74dec1
# label: correct
# class: clean
# pattern: a folder: a reinforcement-learning router for the capacitated vehicle routing problem (Nazari et al. style); the environment builds a boolean (B, n+1) mask that is True on forbidden nodes; the actor's pointer runs an additive "glimpse" attention over node embeddings (B, N, D) with an LSTM state, clips the logits with C * tanh, fills forbidden nodes with -inf and takes a softmax over dim=1, once to form a context and once for the output distribution
# why: correct: the logits are (B, N) after squeeze(-1), so dim=1 is the node (key) axis; the mask is True exactly where a move is forbidden and masked_fill puts -inf there, the polarity the environment documents; additive (tanh) attention has no 1/sqrt(d) factor, and the C * tanh clipping of the paper bounds the logits; the environment always leaves a node open: away from the depot the depot is allowed, at the depot the vehicle is full again and every pending order (1-9 units, below the capacities used) fits, and once every order is served the depot alone stays open, so no row is entirely -inf
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/ADEpigone/VRP_RL https://github.com/ADEpigone/VRP_RL/commit/9018669919880ab35dae5a5e3015a28eeb74dec1 model/attention.py
import torch
import torch.nn as nn


class PointerGlimpse(nn.Module):
    def __init__(self, dim, clip=10.0):
        super().__init__()
        self.clip = clip
        self.score_a = nn.Linear(dim, 1)
        self.score_b = nn.Linear(dim, 1)
        self.proj_a = nn.Linear(2 * dim, dim)
        self.proj_b = nn.Linear(2 * dim, dim)

    def _logits(self, proj, score, nodes, query):
        joint = torch.cat((nodes, query.expand_as(nodes)), dim=-1)
        u = score(torch.tanh(proj(joint))).squeeze(-1)  # (B, N)
        return self.clip * torch.tanh(u)

    def forward(self, nodes, state, blocked):
        # nodes: (B, N, D); state: (B, D); blocked: (B, N), True = not allowed
        u = self._logits(self.proj_a, self.score_a, nodes, state.unsqueeze(1))
        u = u.masked_fill(blocked, float("-inf"))
        a = torch.softmax(u, dim=1)
        context = a.unsqueeze(1) @ nodes  # (B, 1, D)

        u2 = self._logits(self.proj_b, self.score_b, nodes, context)
        u2 = u2.masked_fill(blocked, float("-inf"))
        return torch.softmax(u2, dim=1)
