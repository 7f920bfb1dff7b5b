import torch


@torch.no_grad()
def generate(model, prompt_ids, max_new_tokens: int, cache):
    logits = model.forward_cached(prompt_ids, start_pos=0, cache=cache)
    pos = prompt_ids.size(1)
    out = [prompt_ids]
    for _ in range(max_new_tokens):
        next_id = logits[:, -1:].argmax(-1)
        out.append(next_id)
        logits = model.forward_cached(next_id, start_pos=pos, cache=cache)
        pos += 1
    return torch.cat(out, dim=1)
