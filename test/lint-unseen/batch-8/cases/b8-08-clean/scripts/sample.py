import torch

from model.lm import TinyLM


@torch.no_grad()
def sample(model: TinyLM, ids: list[int], limit: int = 100, temperature: float = 0.8) -> list[int]:
    cache = None
    for _ in range(limit):
        inputs = ids[-model.window :] if cache is None else ids[-1:]
        logits, cache = model(torch.tensor(inputs)[None], cache, use_cache=True)
        probs = torch.softmax(logits[0, -1] / temperature, dim=-1)
        ids.append(int(torch.multinomial(probs, 1)))
        if cache[0][0].shape[-2] == model.window:
            cache = None  # window full: recompute from the last `window` tokens
    return ids
