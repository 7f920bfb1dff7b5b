import torch

from model import Block


@torch.no_grad()
def greedy(block, emb, head, prompt, n):
    h, past = block(emb(prompt))
    out = [prompt]
    for _ in range(n):
        nxt = head(h[:, -1:]).argmax(-1)
        out.append(nxt)
        h, past = block(emb(nxt), past=past)
    return torch.cat(out, 1)
