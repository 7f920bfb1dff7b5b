import torch


@torch.no_grad()
def sample(model, idx, steps, temperature=0.8, top_k=50):
    """LM sampling: logits over the vocabulary divided by a temperature, not attention scores."""
    for _ in range(steps):
        logits = model(idx)[:, -1, :] / temperature  # (B, vocab)
        v, _ = torch.topk(logits, top_k)
        logits[logits < v[:, [-1]]] = -float("inf")
        probs = torch.softmax(logits, dim=-1)
        nxt = torch.multinomial(probs, 1)
        idx = torch.cat([idx, nxt], dim=1)
    return idx
