from __future__ import annotations

import torch

from decoder_block import LayerCache


@torch.no_grad()
def greedy_decode(embed, blocks, head, memory, prompt_ids, max_len: int):
    """Runs the prompt once without a cache, then feeds back one token per step."""
    x = embed(prompt_ids)
    caches = []
    for block in blocks:
        x, cache = block.step(x, memory, LayerCache())
        caches.append(cache)
    tokens = prompt_ids[0].tolist()
    while len(tokens) < max_len:
        next_id = int(head(x)[0, -1].argmax())
        tokens.append(next_id)
        x = embed(torch.tensor([[next_id]], device=prompt_ids.device))
        for i, block in enumerate(blocks):
            x, caches[i] = block.step(x, memory, caches[i])
    return tokens
