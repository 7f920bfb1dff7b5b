# case: t25r-04-clean
# modelled-on: EduardoSebastianRodriguez/Self-Attention-for-Multi-agent-Games https://github.com/EduardoSebastianRodriguez/Self-Attention-for-Multi-agent-Games/commit/864807e80c0e599432630bf0cd6992cfad7ca90a
# label: correct
# class: clean
# pattern: a multi-agent reinforcement-learning policy whose layers attend across agents: per-agent features (batch, n_agents, channels) go through LayerNorm and three nn.Linear projections with small-gain init, the scores are torch.bmm(Q, K.transpose(1, 2)) divided by torch.sqrt(torch.tensor(out_channels)), clamped to [-50, 50], normalised with F.softmax(scores, dim=2), then 1e-8 is added and the weights are divided by their sum over dim 2 again before torch.bmm(weights, V); NaN guards with torch.nan_to_num around it
# why: correct: on 3-D (batch, agents, agents) scores dim=2 is the key axis (the last one); the projections are single-head with out_channels outputs, so sqrt(out_channels) is the sqrt(d_k) scale; the clamp only bounds extreme logits, and the epsilon is followed by a renormalisation over the same axis, so the weights still sum to one (nothing is masked after the softmax); K.transpose(1, 2) swaps the agent and channel axes of a 3-D key tensor as q @ k^T needs
# looks-like: ATT001, ATT004, ATT005, ATT006
# source: https://github.com/EduardoSebastianRodriguez/Self-Attention-for-Multi-agent-Games https://github.com/EduardoSebastianRodriguez/Self-Attention-for-Multi-agent-Games/commit/864807e80c0e599432630bf0cd6992cfad7ca90a experiments/iv_c_benchmarl/benchmarl/models/attention.py
import torch
import torch.nn.functional as F
from torch import nn


class AgentAttention(nn.Module):
    def __init__(self, in_channels, out_channels, device="cpu"):
        super().__init__()
        self.out_channels = out_channels
        self.device = device
        self.norm = nn.LayerNorm(in_channels)
        self.Wq = nn.Linear(in_channels, out_channels)
        self.Wk = nn.Linear(in_channels, out_channels)
        self.Wv = nn.Linear(in_channels, out_channels)
        for lin in (self.Wq, self.Wk, self.Wv):
            nn.init.xavier_uniform_(lin.weight, gain=0.1)
            nn.init.zeros_(lin.bias)

    def forward(self, x):
        x = x.to(self.device)
        if torch.isnan(x).any():
            x = torch.nan_to_num(x, nan=0.0)
        x = self.norm(x)
        Q, K, V = self.Wq(x), self.Wk(x), self.Wv(x)

        scaling = torch.sqrt(torch.tensor(self.out_channels, dtype=torch.float, device=self.device))
        scores = torch.bmm(Q, K.transpose(1, 2)) / scaling
        scores = torch.clamp(scores, -50.0, 50.0)
        weights = F.softmax(scores, dim=2)
        weights = weights + 1e-8
        weights = weights / weights.sum(dim=2, keepdim=True)

        out = torch.bmm(weights, V)
        if torch.isnan(out).any():
            out = torch.nan_to_num(out, nan=0.0)
        return out


class AttentionPolicy(nn.Module):
    """Shared per-agent MLP with attention across agents between its layers."""

    def __init__(self, obs_dim, hidden_dims, action_dim, n_agents, device="cpu"):
        super().__init__()
        self.n_agents = n_agents
        dims = [*hidden_dims, action_dim]
        self.inp = nn.Linear(obs_dim, dims[0])
        self.attn = nn.ModuleList(AgentAttention(d, d, device) for d in dims[:-1])
        self.lin = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))

    def forward(self, obs):
        # obs: (batch, n_agents, obs_dim)
        x = torch.tanh(self.inp(obs))
        for i, (attn, lin) in enumerate(zip(self.attn, self.lin)):
            x = lin(attn(x))
            if i < len(self.lin) - 1:
                x = torch.tanh(x)
        return x
