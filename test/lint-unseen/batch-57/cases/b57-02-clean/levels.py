# case: b57-02-clean
# modelled-on: MCZhi/GameFormer https://github.com/MCZhi/GameFormer/commit/4e8948d28b39987467579268fb1c541132007230
# label: correct
# class: clean
# pattern: the level-k reasoning decoder of a game-theoretic trajectory predictor (a folder: post-norm self- and cross-attention blocks around nn.MultiheadAttention with key_padding_mask, and the levels that weight each agent's previous-level futures by a softmax over its modes, let agents attend to each other and then query the scene tokens with the agent's own previous future hidden by setting its padding flag to True)
# why: correct: the padding masks come from the encoder with True = empty slot, which is key_padding_mask's polarity, and `hide[:, i] = True` adds the agent's own interaction token to the ignored keys on a clone, so the scene tokens of the ego (never empty) keep every row non-empty; the softmax over dim -1 of the mode scores normalises over the M modes and the weighted futures are then averaged over those modes, a mixture, not attention weights over keys; the attention itself is nn.MultiheadAttention's
# looks-like: ATT001, ATT002, ATT006
# source: https://github.com/MCZhi/GameFormer https://github.com/MCZhi/GameFormer/commit/4e8948d28b39987467579268fb1c541132007230 model/modules.py
import torch
from torch import nn

from blocks import AgentSelfBlock, QueryCrossBlock


class GaussianHead(nn.Module):
    def __init__(self, horizon: int, dim: int = 256):
        super().__init__()
        self.horizon = horizon
        self.traj = nn.Sequential(nn.Linear(dim, 512), nn.ELU(), nn.Dropout(0.1), nn.Linear(512, horizon * 4))
        self.score = nn.Sequential(nn.Linear(dim, 64), nn.ELU(), nn.Dropout(0.1), nn.Linear(64, 1))

    def forward(self, h: torch.Tensor):
        b, m, _ = h.shape
        return self.traj(h).view(b, m, self.horizon, 4), self.score(h).squeeze(-1)


class FutureSummary(nn.Module):
    def __init__(self, dim: int = 256):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, dim))

    def forward(self, xy: torch.Tensor) -> torch.Tensor:
        return self.mlp(xy).amax(dim=-2)


class FirstLevel(nn.Module):
    def __init__(self, n_modes: int, n_agents: int, horizon: int, dim: int = 256):
        super().__init__()
        self.mode_query = nn.Parameter(torch.randn(n_modes, dim) * 0.02)
        self.agent_query = nn.Embedding(n_agents, dim)
        self.read_scene = QueryCrossBlock(dim)
        self.head = GaussianHead(horizon, dim)

    def forward(self, i: int, state: torch.Tensor, tokens: torch.Tensor, ignore: torch.Tensor):
        idx = torch.full((1,), i, dtype=torch.long, device=tokens.device)
        queries = tokens[:, i, None] + self.mode_query[None] + self.agent_query(idx)[:, None]
        hidden = self.read_scene(queries, tokens, ignore)
        traj, score = self.head(hidden)
        traj[..., :2] = traj[..., :2] + state[:, None, None, :2]
        return hidden, traj, score


class ResponseLevel(nn.Module):
    def __init__(self, summary: FutureSummary, horizon: int, dim: int = 256):
        super().__init__()
        self.summary = summary
        self.among_agents = AgentSelfBlock(dim)
        self.read_scene = QueryCrossBlock(dim)
        self.head = GaussianHead(horizon, dim)

    def forward(self, i, states, prev_traj, prev_score, prev_hidden, tokens, ignore):
        n = prev_traj.shape[1]
        futures = self.summary(prev_traj[..., :2] - states[:, :n, None, None, :2])
        mode_weight = prev_score.softmax(dim=-1)
        mixed = (futures * mode_weight[..., None]).mean(dim=2)
        interaction = self.among_agents(mixed, ignore[:, :n])

        memory = torch.cat([interaction, tokens], dim=1)
        hide = torch.cat([ignore[:, :n], ignore], dim=1).clone()
        hide[:, i] = True
        hidden = self.read_scene(prev_hidden + futures[:, i], memory, hide)
        traj, score = self.head(hidden)
        traj[..., :2] = traj[..., :2] + states[:, i, None, None, :2]
        return hidden, traj, score
