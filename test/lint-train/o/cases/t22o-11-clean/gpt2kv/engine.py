import torch

from .model_kv import GPT


@torch.no_grad()
def stream(model: GPT, tokens, max_new_tokens, sample, eot_token, use_cache=True):
    idx = torch.tensor(tokens, dtype=torch.long).unsqueeze(0)
    if use_cache:
        logits, kv_caches = model(idx)  # prefill: no cache, causal over the prompt
        for _ in range(max_new_tokens):
            next_token = sample(logits[:, -1, :])
            if next_token.item() == eot_token:
                break
            yield next_token.item()
            logits, kv_caches = model(next_token, kv_caches)  # one token against the cache
    else:
        for _ in range(max_new_tokens):
            logits, _ = model(idx)
            next_token = sample(logits[:, -1, :])
            if next_token.item() == eot_token:
                break
            yield next_token.item()
            idx = torch.cat([idx, next_token], dim=1)
