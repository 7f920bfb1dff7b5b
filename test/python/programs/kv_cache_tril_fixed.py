import math
import torch


def step(q, k_cache, v_cache):
    T, S = q.shape[-2], k_cache.shape[-2]
    mask = torch.tril(torch.ones(T, S, dtype=torch.bool), diagonal=S - T)
    scores = q @ k_cache.transpose(-2, -1) / math.sqrt(q.shape[-1])
    scores = scores.masked_fill(~mask, float("-inf"))
    return scores.softmax(-1) @ v_cache


torch.manual_seed(0)
k_cache, v_cache = torch.randn(2, 1, 2, 9, 16).unbind(0)
q = torch.randn(1, 2, 3, 16)  # 3 new tokens after 6 cached ones
print(step(q, k_cache, v_cache).shape)
