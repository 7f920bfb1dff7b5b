import torch


def pick_token(logits, temperature=1.0, top_k=None):
    if temperature <= 0.0:
        return torch.argmax(logits, dim=-1, keepdim=True)
    logits = logits / temperature
    if top_k is not None and 0 < top_k < logits.size(-1):
        kth = torch.topk(logits, top_k).values[:, [-1]]
        logits = torch.where(logits < kth, torch.full_like(logits, float("-inf")), logits)
    return torch.multinomial(torch.softmax(logits, dim=-1), num_samples=1)


@torch.inference_mode()
def generate(model, ids, max_new_tokens, temperature=1.0, top_k=None, stop_ids=()):
    model.eval()
    out = ids
    for _ in range(max_new_tokens):
        window = out[:, -model.config.block_size :]
        logits, _ = model(window)
        nxt = pick_token(logits[:, -1, :], temperature, top_k)
        out = torch.cat([out, nxt], dim=1)
        if stop_ids and all(int(t.item()) in stop_ids for t in nxt):
            break
    return out
