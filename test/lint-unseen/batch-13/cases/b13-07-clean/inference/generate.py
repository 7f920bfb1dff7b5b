import torch


@torch.no_grad()
def generate_with_cache(model, start_tokens, block_size: int, max_new_tokens: int):
    model.eval()
    tokens = start_tokens
    past_kv = None
    for _ in range(max_new_tokens):
        if past_kv is None:
            x = tokens[:, -block_size:]  # the whole prompt, no cache yet
        else:
            x = tokens[:, -1:]  # only the newest token
        logits, past_kv = model(x, past_kv=past_kv)
        next_token = torch.argmax(logits[:, -1, :], dim=-1, keepdim=True)
        tokens = torch.cat([tokens, next_token], dim=1)
    return tokens
