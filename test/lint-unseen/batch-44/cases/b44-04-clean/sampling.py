import torch

from attention import QGenLM

END_ID = 50258


def top_p_sample(logits: torch.Tensor, temperature: float, top_p: float) -> int:
    sorted_p, order = torch.softmax(logits / max(temperature, 1e-5), dim=-1).sort(descending=True)
    sorted_p = sorted_p * (sorted_p.cumsum(-1) - sorted_p < top_p)
    return int(order[torch.multinomial(sorted_p / sorted_p.sum(), 1)])


@torch.no_grad()
def generate(model: QGenLM, prompt_ids, max_new: int = 256, temperature: float = 0.7, top_p: float = 0.9):
    model.eval()
    ids = torch.tensor([prompt_ids], dtype=torch.long)
    logits, cache = model(ids, use_cache=True)
    out = []
    nxt = top_p_sample(logits[0, -1].float(), temperature, top_p)
    for _ in range(max_new):
        if nxt == END_ID:
            break
        out.append(nxt)
        step = torch.tensor([[nxt]], dtype=torch.long)
        logits, cache = model(step, past_kvs=cache, use_cache=True)
        nxt = top_p_sample(logits[0, -1].float(), temperature, top_p)
    return out
