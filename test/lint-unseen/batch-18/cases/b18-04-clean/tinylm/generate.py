import torch

from .model import TinyLM


@torch.no_grad()
def sample(model: TinyLM, tokens: torch.Tensor, steps: int, max_len: int = 256, temperature: float = 0.8):
    model.eval()
    for _ in range(steps):
        context = tokens[:, -max_len:]
        logits = model(context)[:, -1, :] / temperature
        nxt = torch.multinomial(torch.softmax(logits, dim=-1), num_samples=1)
        tokens = torch.cat([tokens, nxt], dim=1)
    return tokens
