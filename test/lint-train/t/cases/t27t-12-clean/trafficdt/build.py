import torch

from trafficdt.gat import AgentMixer


def route_adjacency(n_agents: int) -> torch.Tensor:
    """Intersections along one route: self-loops plus a link to each neighbour."""
    adj = torch.eye(n_agents, dtype=torch.float32)
    for i in range(n_agents - 1):
        adj[i, i + 1] = 1.0
        adj[i + 1, i] = 1.0
    return adj


def build_mixer(n_agents: int, hidden_dim: int = 128, gat_heads: int = 4, gat_layers: int = 1) -> AgentMixer:
    return AgentMixer(route_adjacency(n_agents), hidden_dim, gat_heads, gat_layers)


def smoke_test(n_agents: int = 6, hidden_dim: int = 32) -> torch.Size:
    mixer = build_mixer(n_agents, hidden_dim, gat_heads=2)
    states = torch.randn(4, n_agents, 10, hidden_dim)  # [B, N, T, H]
    out = mixer(states)
    assert not torch.isnan(out).any()
    return out.shape


if __name__ == "__main__":
    print(smoke_test())
