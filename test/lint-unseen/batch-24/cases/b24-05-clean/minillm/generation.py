import torch

from minillm.config import MiniConfig


@torch.no_grad()
def generate(model, input_ids: torch.Tensor, cfg: MiniConfig, max_new_tokens: int = 64, temperature: float = 1.0):
    model.eval()
    for _ in range(max_new_tokens):
        # no cache: the whole (cropped) context goes through the model every step
        ctx = input_ids if input_ids.size(1) <= cfg.block_size else input_ids[:, -cfg.block_size :]
        logits = model(ctx)[:, -1, :] / max(temperature, 1e-6)
        probs = torch.softmax(logits, dim=-1)
        nxt = torch.multinomial(probs, num_samples=1)
        input_ids = torch.cat([input_ids, nxt], dim=1)
    return input_ids
