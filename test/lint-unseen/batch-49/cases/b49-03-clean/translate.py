import torch


@torch.no_grad()
def greedy_translate(model, source_ids, eos_id, max_len, device):
    """Feeds source + generated target back through the decoder-only model each step.

    The whole prefix is re-encoded every step, so the model builds its padding and
    look-ahead masks for the current length itself.
    """
    model.eval()
    prefix = torch.tensor(source_ids, dtype=torch.long, device=device).unsqueeze(0)
    start = prefix.size(1)
    for _ in range(max_len - 1):
        logits, attn = model(prefix)
        next_id = logits[0, -1].argmax().view(1, 1)
        prefix = torch.cat((prefix, next_id), dim=1)
        if next_id.item() == eos_id:
            break
    return prefix[0, start:].tolist(), attn
