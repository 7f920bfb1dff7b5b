import torch


@torch.no_grad()
def generate(model, input_ids, max_new_tokens=64, temperature=0.8):
    positions = torch.arange(input_ids.shape[1], device=input_ids.device)
    logits, kv_caches = model.forward_with_cache(input_ids, kv_caches=None, positions=positions)
    generated = input_ids
    for step in range(max_new_tokens):
        probs = torch.softmax(logits[:, -1, :] / temperature, dim=-1)
        next_token = torch.multinomial(probs, num_samples=1)
        generated = torch.cat([generated, next_token], dim=1)
        pos = torch.tensor([generated.shape[1] - 1], device=input_ids.device)
        logits, kv_caches = model.forward_with_cache(next_token, kv_caches=kv_caches, positions=pos)
    return generated
