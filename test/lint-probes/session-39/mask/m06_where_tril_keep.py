import torch


def causal_attention(q, k, v):
    # q, k, v: (B, T, D)
    T = q.size(1)
    mask = torch.tril(torch.ones(T, T, dtype=torch.bool, device=q.device))  # True on and below the diagonal
    scores = q @ k.transpose(1, 2) * q.size(-1) ** -0.5  # (B, T, T)
    scores = torch.where(mask, scores, torch.tensor(float("-inf"), device=q.device))
    return scores.softmax(dim=-1) @ v
