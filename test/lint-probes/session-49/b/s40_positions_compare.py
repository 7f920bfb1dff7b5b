import torch


def local_causal_scores(q, k, window):
    T = q.size(-2)
    pos = torch.arange(T, device=q.device)
    future = pos[None, :] > pos[:, None]
    too_far = (pos[:, None] - pos[None, :]) >= window
    scores = q @ k.transpose(-1, -2) * q.size(-1) ** -0.5
    scores = scores.masked_fill(future | too_far, float("-inf"))
    return scores.softmax(-1)
