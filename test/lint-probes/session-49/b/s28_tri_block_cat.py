import torch


def prefix_decode_mask(T, start, device):
    tri = torch.full((T, T), float("-inf"), device=device).triu(1)
    return torch.cat([torch.zeros(T, start, device=device), tri], dim=-1)


def attend(q, k_new, v_new, cache_k, cache_v, start):
    k = torch.cat([cache_k[:, :, :start], k_new], dim=2)
    v = torch.cat([cache_v[:, :, :start], v_new], dim=2)
    scores = q @ k.transpose(-1, -2) / q.size(-1) ** 0.5
    scores = scores + prefix_decode_mask(q.size(2), start, q.device)
    return scores.softmax(-1) @ v
