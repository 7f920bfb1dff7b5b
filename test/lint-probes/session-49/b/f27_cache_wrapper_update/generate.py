import torch

from cache import LayerCache
from model import Attention


@torch.no_grad()
def run(attn: Attention, emb, head, prompt, n):
    cache = LayerCache()
    h = attn(emb(prompt), cache=cache)
    ids = prompt
    for _ in range(n):
        nxt = head(h[:, -1:]).argmax(-1)
        ids = torch.cat([ids, nxt], 1)
        h = attn(emb(nxt), cache=cache)
    return ids
