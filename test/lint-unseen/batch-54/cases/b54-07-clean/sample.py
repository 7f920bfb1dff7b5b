import torch
import torch.nn.functional as F

from block import CharGPT


def pick(logits: torch.Tensor, temperature: float = 1.0, top_k=None) -> int:
    if temperature <= 0:
        raise ValueError("temperature must be positive")
    logits = logits / temperature
    if top_k is not None:
        best, where = torch.topk(logits, top_k)
        kept = torch.full_like(logits, float("-inf"))
        kept[where] = best
        logits = kept
    return torch.multinomial(F.softmax(logits, dim=-1), 1).item()


@torch.no_grad()
def continue_text(model: CharGPT, ids, steps: int, temperature: float = 0.8, top_k: int = 20):
    model.eval()
    seq = torch.tensor(ids, dtype=torch.long).unsqueeze(0)
    for _ in range(steps):
        window = seq[:, -model.block_size:]  # never longer than the causal buffer
        nxt = pick(model(window)[0, -1], temperature, top_k)
        seq = torch.cat([seq, torch.tensor([[nxt]])], dim=1)
    return seq[0].tolist()
