import torch

from .model import ArchConfig, InstructGPT


def load(state, arch, device):
    model = InstructGPT(ArchConfig(**arch))
    model.load_state_dict(state)
    return model.to(device).eval()


@torch.no_grad()
def respond(model, prompt_ids, eos_id, max_new_tokens=200, temperature=0.8, top_k=40, device="cpu"):
    idx = torch.tensor([prompt_ids], dtype=torch.long, device=device)
    produced = []
    for _ in range(max_new_tokens):
        window = idx if idx.size(1) <= model.config.BLOCK_SIZE else idx[:, -model.config.BLOCK_SIZE :]
        logits, _ = model(window)
        logits = logits[:, -1, :] / temperature
        if top_k is not None:
            v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
            logits[logits < v[:, [-1]]] = -float("inf")
        nxt = int(torch.multinomial(torch.softmax(logits, dim=-1), num_samples=1))
        if nxt == eos_id:
            break
        produced.append(nxt)
        idx = torch.cat((idx, torch.tensor([[nxt]], device=device)), dim=1)
    return produced
