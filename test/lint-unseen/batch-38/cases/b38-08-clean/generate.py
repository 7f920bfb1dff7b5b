import torch

from model import TinyDecoder


@torch.no_grad()
def sample(model: TinyDecoder, prompt_ids, max_new_tokens=64, temperature=0.8, eos_id=None):
    model.eval()
    ids = torch.tensor(prompt_ids[-model.context:], dtype=torch.long).unsqueeze(0)
    logits, past = model(ids, use_cache=True)
    next_logits, produced = logits[:, -1], []
    for _ in range(max_new_tokens):
        if len(prompt_ids) + len(produced) >= model.context:
            break
        probs = torch.softmax(next_logits / temperature, dim=-1)
        token = torch.multinomial(probs, num_samples=1)
        if token.item() == eos_id:
            break
        produced.append(token.item())
        logits, past = model(token, past=past, use_cache=True)
        next_logits = logits[:, -1]
    return produced
