# case: b11-04-softmax
# modelled-on: wisnunugroho21/nugi_rl https://github.com/wisnunugroho21/nugi_rl/commit/9d4b1444d62241eb890bd8a1362dac90591e747b
# label: correct
# class: fixed
# pattern: the same policy network after the fix: two self-attention encoders over the per-vehicle features and a final pooling encoder with a (1, 1, D) learned query; the attention module in a components package divides query @ key.transpose(1, 2) by sqrt(query.size(-1)), fills the slots whose state flag is -1 with finfo.min, and softmaxes with dim=-1; the flag is the last state feature, unsqueezed to (B, 1, N) in the model
# why: correct: the scores are (B, Nq, N) and dim=-1 is the key axis; the fill hides the empty slots (flag -1) from every query, with the dtype's lowest finite value; each head is the full width, so sqrt(query.size(-1)) is the key width; what a naive linter could misread: ATT001 (softmax on scores with a length-1 query axis), ATT002 (a mask compared with -1 before masked_fill), ATT007 (finfo.min as the fill)
# looks-like: ATT001, ATT002, ATT007
# source: https://github.com/wisnunugroho21/nugi_rl https://github.com/wisnunugroho21/nugi_rl/commit/9d4b1444d62241eb890bd8a1362dac90591e747b nugi_rl/model/ppo/SumoNN.py
import torch
import torch.nn as nn
from torch import Tensor

from blocks.attention import DotAttention


class Encoder(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.value = nn.Linear(dim, dim)
        self.key = nn.Linear(dim, dim)
        self.query = nn.Linear(dim, dim)
        self.att = DotAttention()
        self.ff = nn.Sequential(nn.Linear(dim, dim), nn.ELU())

    def forward(self, x: Tensor, mask: Tensor) -> Tensor:
        ctx = self.att(self.value(x), self.key(x), self.query(x), mask) + x
        return self.ff(ctx) + ctx


class PoolEncoder(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.value = nn.Linear(dim, dim)
        self.key = nn.Linear(dim, dim)
        self.query = nn.Parameter(torch.ones(1, 1, dim))
        self.att = DotAttention()

    def forward(self, x: Tensor, mask: Tensor) -> Tensor:
        return self.att(self.value(x), self.key(x), self.query, mask).squeeze(1)


class PolicyNet(nn.Module):
    def __init__(self, state_dim: int, action_dim: int, bins: int, dim: int = 10):
        super().__init__()
        self.action_dim, self.bins = action_dim, bins
        self.embed = nn.Sequential(nn.Linear(state_dim, dim), nn.SiLU())
        self.enc1 = Encoder(dim)
        self.enc2 = Encoder(dim)
        self.pool = PoolEncoder(dim)
        self.head = nn.Sequential(nn.Linear(dim, 64), nn.SiLU(), nn.Linear(64, action_dim * bins), nn.Sigmoid())

    def forward(self, states: Tensor, detach: bool = False):
        flag = states[:, :, -1].unsqueeze(1)  # (B, 1, N)
        x = self.embed(states)
        x = self.enc1(x, flag)
        x = self.enc2(x, flag)
        action = self.head(self.pool(x, flag)).reshape(-1, self.action_dim, self.bins)
        return (action.detach(),) if detach else (action,)
