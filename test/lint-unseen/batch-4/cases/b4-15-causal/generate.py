import torch

from kv import KVCache


@torch.no_grad()
def generate(model, prompt, max_new_tokens, max_len=4096):
    device = next(model.parameters()).device
    ids = torch.tensor(prompt, device=device).unsqueeze(0)  # (1, P)
    attn = model.layers[0].attn
    cache = KVCache(len(model.layers), 1, attn.nheads, attn.head_dim, max_len, device)

    logits = model(ids, kv_cache=cache)  # prefill: every prompt token at once
    cache.length = ids.size(1)
    out = list(prompt)
    for _ in range(max_new_tokens):
        nxt = int(torch.argmax(logits[:, -1, :], dim=-1).item())
        out.append(nxt)
        step = torch.tensor([[nxt]], device=device)  # (1, 1): one new token per step
        logits = model(step, kv_cache=cache)
        cache.length += 1
    return out
