import torch
from torch.nn import functional as F

from .model import StoryGPT


@torch.no_grad()
def top_next(model: StoryGPT, ids, temperature=1.0, k=10, device="cpu"):
    model.eval()
    window = ids[-model.config.block_size:]
    logits, _ = model(torch.tensor([window], dtype=torch.long, device=device))
    probs = F.softmax(logits[0, -1] / max(temperature, 1e-6), dim=-1)
    top = torch.topk(probs, min(k, probs.numel()))
    return list(zip(top.indices.tolist(), top.values.tolist()))


@torch.no_grad()
def sample(model: StoryGPT, idx, steps, temperature=0.8, top_k=50, eot_id=None):
    model.eval()
    for _ in range(steps):
        logits, _ = model(idx[:, -model.config.block_size:])
        logits = logits[:, -1, :]
        if temperature <= 0:
            nxt = logits.argmax(dim=-1, keepdim=True)
        else:
            logits = logits / temperature
            if top_k:
                kth = torch.topk(logits, min(top_k, logits.size(-1))).values[:, [-1]]
                logits = logits.masked_fill(logits < kth, float("-inf"))
            nxt = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)
        idx = torch.cat((idx, nxt), dim=1)
        if eot_id is not None and bool((nxt == eot_id).all()):
            break
    return idx
