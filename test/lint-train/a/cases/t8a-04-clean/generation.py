import torch

from attention import KV, WindowedGQA


@torch.no_grad()
def decode(layers: list[WindowedGQA], embed, head, prompt: torch.Tensor, steps: int):
    """Exact cached decoding: prefill once, then one token per step through every layer's cache."""
    caches: list[KV | None] = [None] * len(layers)
    x = embed(prompt)
    for i, layer in enumerate(layers):
        h, caches[i] = layer.forward_cached(x, caches[i])
        x = x + h
    ids = prompt
    for _ in range(steps):
        nxt = head(x[:, -1]).argmax(-1, keepdim=True)
        ids = torch.cat([ids, nxt], dim=1)
        x = embed(nxt)
        for i, layer in enumerate(layers):
            h, caches[i] = layer.forward_cached(x, caches[i])
            x = x + h
    return ids
