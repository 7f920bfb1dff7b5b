import torch

from .model import TinyLM


@torch.no_grad()
def generate(model: TinyLM, input_ids: torch.Tensor, max_tokens: int = 100, eos_id: int = 2):
    cache = None
    out = input_ids
    for _ in range(max_tokens):
        if cache is None:
            logits, cache = model(out, use_cache=True)  # the whole prompt, no cache yet
        else:
            logits, cache = model(out[:, -1:], cache=cache, use_cache=True)  # one new token
        next_token = torch.argmax(logits[:, -1, :], dim=-1, keepdim=True)
        if int(next_token[0, 0]) == eos_id:
            break
        out = torch.cat([out, next_token], dim=1)
    return out
