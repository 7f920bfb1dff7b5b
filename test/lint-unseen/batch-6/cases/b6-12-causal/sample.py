import torch

from transformer import GPT


@torch.no_grad()
def generate(model: GPT, prompt_ids, max_new_tokens=64, temperature=0.8):
    model.eval()
    logits, caches = model(prompt_ids, use_cache=True)  # prefill: the whole prompt, no cache yet
    out = prompt_ids
    for _ in range(max_new_tokens):
        probs = torch.softmax(logits[:, -1, :] / temperature, dim=-1)
        nxt = torch.multinomial(probs, num_samples=1)
        out = torch.cat([out, nxt], dim=1)
        logits, caches = model(nxt, use_cache=True, caches=caches)  # one new token against the cached keys
    return out
