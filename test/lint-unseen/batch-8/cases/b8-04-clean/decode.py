import torch


@torch.no_grad()
def greedy(model, src, src_mask, sos: int, eos: int, max_len: int = 128):
    memory = model.encode(src, src_mask)
    ys = torch.full((src.size(0), 1), sos, dtype=torch.long, device=src.device)
    done = torch.zeros(src.size(0), dtype=torch.bool, device=src.device)
    for _ in range(max_len - 1):
        T = ys.size(1)
        tgt_mask = torch.tril(torch.ones((T, T), device=src.device)).bool()[None, None]
        logits = model.decode(ys, memory, target_mask=tgt_mask, memory_mask=src_mask)
        nxt = logits[:, -1].argmax(-1, keepdim=True)
        ys = torch.cat([ys, nxt], dim=1)
        done |= nxt.squeeze(-1) == eos
        if done.all():
            break
    return ys
