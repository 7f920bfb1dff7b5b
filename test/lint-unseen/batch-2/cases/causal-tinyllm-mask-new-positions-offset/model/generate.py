import torch

from model.config import LayerCache


@torch.no_grad()
def generate(model, prompt_ids: torch.Tensor, max_new_tokens: int, temperature: float = 1.0) -> torch.Tensor:
    """prompt_ids: (1, T_prompt). Prefill the whole prompt with the caches attached, then one token at a time."""
    model.eval()
    caches = [LayerCache() for _ in range(len(model.blocks))]
    logits = model(prompt_ids, caches=caches)  # prefill: T_new = T_prompt > 1, caches attached
    ids = prompt_ids
    for _ in range(max_new_tokens):
        probs = torch.softmax(logits[:, -1, :] / temperature, dim=-1)  # (1, vocab)
        next_id = torch.multinomial(probs, num_samples=1)
        ids = torch.cat([ids, next_id], dim=1)
        logits = model(next_id, caches=caches)  # decode: T_new = 1
    return ids
