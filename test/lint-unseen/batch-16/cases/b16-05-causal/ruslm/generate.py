import torch


@torch.no_grad()
def generate(model, idx, max_new_tokens, temperature=1.0, fast=True):
    """Greedy-ish sampling with a KV cache; `fast` switches the attention maps off (SDPA path)."""
    model.eval()
    for block in model.blocks:
        block.attn.maps = not fast
    past_key_values = None
    for _ in range(max_new_tokens):
        input_ids = idx if past_key_values is None else idx[:, -1:]
        logits, past_key_values = model(input_ids, past_key_values=past_key_values, use_cache=True)
        probs = torch.softmax(logits[:, -1, :] / max(temperature, 1e-5), dim=-1)
        nxt = torch.multinomial(probs, num_samples=1)
        idx = torch.cat([idx, nxt], dim=1)
    return idx
