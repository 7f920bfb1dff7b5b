import torch

from model import CachedAttention


@torch.no_grad()
def generate(emb, head, prompt, steps):
    attn = CachedAttention(64, 4)
    y, cache = attn(emb(prompt))
    ids = prompt
    for _ in range(steps):
        nxt = head(y[:, -1]).argmax(-1, keepdim=True)
        ids = torch.cat([ids, nxt], 1)
        y, cache = attn(emb(nxt), kv_cache=cache)
    return ids
