import torch


def generate(model, idx, max_new_tokens, context_size, temperature=0.0, top_k=None, eos_id=None):
    for _ in range(max_new_tokens):
        window = idx[:, -context_size:]
        with torch.no_grad():
            logits = model(window)
        logits = logits[:, -1, :]
        if top_k is not None:
            kth = torch.topk(logits, top_k).values[:, -1]
            logits = torch.where(logits < kth, torch.tensor(float("-inf")).to(logits.device), logits)
        if temperature > 0.0:
            logits = logits / temperature
            logits = logits - logits.max(dim=-1, keepdim=True).values
            nxt = torch.multinomial(torch.softmax(logits, dim=-1), num_samples=1)
        else:
            nxt = torch.argmax(logits, dim=-1, keepdim=True)
        if nxt == eos_id:
            break
        idx = torch.cat((idx, nxt), dim=1)
    return idx
