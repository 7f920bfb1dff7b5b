# case: b11-03-softmax
# modelled-on: wisnunugroho21/nugi_rl https://github.com/wisnunugroho21/nugi_rl/commit/2ad9c888d65528d43dca3464b8ff41058df05286
# label: buggy
# class: real-bug
# pattern: a reinforcement-learning policy and value network that pools a set of per-vehicle state vectors with one learned query: the model projects the states (B, N, D) to values and keys and passes them with a (1, 1, D) learned query to a dot-product attention module in a components package, which computes query @ key.transpose(1, 2), divides by sqrt(query.size(-1)) and softmaxes with dim=1
# why: buggy: the scores are (B, 1, N) (one learned query against the N keys), so dim=1 is the length-1 query axis and every weight is 1.0: the pooled context is the plain sum of the values; the next commit changed the softmax to dim=-1 (over the keys); the real model also built its query with torch.tensor(1, state_dim), written here as a (1, 1, D) parameter so that the axis is the one defect
# source: https://github.com/wisnunugroho21/nugi_rl https://github.com/wisnunugroho21/nugi_rl/commit/9d4b1444d62241eb890bd8a1362dac90591e747b nugi_rl/model/components/SelfAttention.py
import torch
import torch.nn as nn
from torch import Tensor

from blocks.attention import DotAttention


class PolicyNet(nn.Module):
    def __init__(self, state_dim: int, action_dim: int, bins: int):
        super().__init__()
        self.action_dim = action_dim
        self.bins = bins
        self.value = nn.Linear(state_dim, state_dim)
        self.key = nn.Linear(state_dim, state_dim)
        self.query = nn.Parameter(torch.ones(1, 1, state_dim))
        self.att = DotAttention()
        self.head = nn.Sequential(
            nn.Linear(state_dim, 256),
            nn.SiLU(),
            nn.Linear(256, action_dim * bins),
            nn.Sigmoid(),
        )

    def forward(self, states: Tensor, detach: bool = False):
        # states: (B, N, state_dim), one row per vehicle
        context = self.att(self.value(states), self.key(states), self.query)  # (B, 1, state_dim)
        action = self.head(context).reshape(-1, self.action_dim, self.bins)
        return (action.detach(),) if detach else (action,)


class ValueNet(nn.Module):
    def __init__(self, state_dim: int):
        super().__init__()
        self.value = nn.Linear(state_dim, state_dim)
        self.key = nn.Linear(state_dim, state_dim)
        self.query = nn.Parameter(torch.ones(1, 1, state_dim))
        self.att = DotAttention()
        self.head = nn.Sequential(nn.Linear(state_dim, 64), nn.SiLU(), nn.Linear(64, 1))

    def forward(self, states: Tensor, detach: bool = False) -> Tensor:
        context = self.att(self.value(states), self.key(states), self.query)
        out = self.head(context)
        return out.detach() if detach else out
