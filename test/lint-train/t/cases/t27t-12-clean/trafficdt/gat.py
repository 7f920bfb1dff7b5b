# case: t27t-12-clean
# modelled-on: AnthonySu/decision-transformer-traffic https://github.com/AnthonySu/decision-transformer-traffic/commit/9dab590348694d138523ba323571f8cf0720e666
# label: correct
# class: clean
# pattern: a multi-agent Decision Transformer for traffic signals whose agents exchange state embeddings through graph attention before the causal transformer: a GAT head scores all agent pairs additively (a_src(Wh) + a_dst(Wh)^T, LeakyReLU), fills masked_fill((adj == 0).unsqueeze(0), -inf), takes softmax(dim=-1), applies dropout and then nan_to_num(0.0); the build module makes the adjacency torch.eye(n) plus a chain along the route and registers it as a buffer
# why: correct: adj == 0 is True for pairs with no edge, which is where the fill belongs; the adjacency always holds the self-loops (eye), so every row keeps its own agent and -inf cannot make a row NaN; the nan_to_num after the softmax only guards isolated nodes and masks nothing (a no-op for this graph); the softmax runs over the neighbour axis j of e_i + e_j
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/AnthonySu/decision-transformer-traffic https://github.com/AnthonySu/decision-transformer-traffic/commit/9dab590348694d138523ba323571f8cf0720e666 src/models/madt.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphAttentionHead(nn.Module):
    """One GAT head over the agents of a traffic network."""

    def __init__(self, embed_dim: int, dropout: float = 0.1) -> None:
        super().__init__()
        self.W = nn.Linear(embed_dim, embed_dim, bias=False)
        self.a_src = nn.Linear(embed_dim, 1, bias=False)
        self.a_dst = nn.Linear(embed_dim, 1, bias=False)
        self.leaky_relu = nn.LeakyReLU(negative_slope=0.2)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, adj: torch.Tensor) -> torch.Tensor:
        # x: [B, N, D]; adj: [N, N], non-zero on edges (self-loops included)
        Wh = self.W(x)
        e = self.leaky_relu(self.a_src(Wh) + self.a_dst(Wh).transpose(-2, -1))  # [B, N, N]
        no_edge = (adj == 0).unsqueeze(0)                                        # [1, N, N]
        e = e.masked_fill(no_edge, float("-inf"))
        alpha = self.dropout(F.softmax(e, dim=-1))
        alpha = alpha.nan_to_num(0.0)  # an isolated node would have an all -inf row
        return torch.matmul(alpha, Wh)


class GraphAttention(nn.Module):
    def __init__(self, embed_dim: int, n_heads: int = 4, dropout: float = 0.1) -> None:
        super().__init__()
        self.heads = nn.ModuleList([GraphAttentionHead(embed_dim, dropout) for _ in range(n_heads)])
        self.out_proj = nn.Linear(n_heads * embed_dim, embed_dim)
        self.ln = nn.LayerNorm(embed_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, adj: torch.Tensor) -> torch.Tensor:
        out = torch.cat([head(x, adj) for head in self.heads], dim=-1)  # [B, N, heads * D]
        return self.ln(self.dropout(self.out_proj(out)) + x)


class AgentMixer(nn.Module):
    """Runs the GAT layers over every (batch, timestep) graph of agent states."""

    def __init__(self, adj_matrix: torch.Tensor, hidden_dim: int, gat_heads: int = 4, gat_layers: int = 1):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.register_buffer("adj_matrix", adj_matrix.float())
        self.gat_layers = nn.ModuleList([GraphAttention(hidden_dim, gat_heads) for _ in range(gat_layers)])

    def forward(self, state_emb: torch.Tensor) -> torch.Tensor:
        B, N, T, H = state_emb.shape
        g = state_emb.permute(0, 2, 1, 3).reshape(B * T, N, H)  # one graph per (batch, timestep)
        for gat in self.gat_layers:
            g = gat(g, self.adj_matrix)
        return g.reshape(B, T, N, H).permute(0, 2, 1, 3)
