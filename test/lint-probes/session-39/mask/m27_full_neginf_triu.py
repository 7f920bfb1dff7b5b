import torch


def causal_bias(T, device):
    return torch.full((T, T), float("-inf"), device=device).triu(1)  # -inf above the diagonal, 0 elsewhere


def attention(q, k, v):
    # q, k, v: (B, H, T, D)
    T = q.size(-2)
    s = q @ k.transpose(-2, -1) * q.size(-1) ** -0.5 + causal_bias(T, q.device)
    return torch.softmax(s, dim=-1) @ v
