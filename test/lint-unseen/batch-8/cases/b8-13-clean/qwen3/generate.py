import torch


def greedy(logits):
    return logits.argmax(dim=-1, keepdim=True)


@torch.no_grad()
def generate(model, prompt_ids: list[int], max_new_tokens: int):
    device = next(model.parameters()).device
    dtype = next(model.parameters()).dtype
    n = len(prompt_ids)
    ids = torch.tensor([prompt_ids], device=device)
    future = torch.triu(torch.ones(n, n, device=device, dtype=torch.bool), diagonal=1)
    mask = torch.where(future, float("-inf"), 0.0)[None, None].to(dtype)
    logits, cache = model(ids, torch.arange(n, device=device)[None], attn_mask=mask)
    out = [int(greedy(logits[:, -1]))]
    for _ in range(max_new_tokens - 1):
        pos = torch.tensor([[n + len(out) - 1]], device=device)
        logits, cache = model(torch.tensor([[out[-1]]], device=device), pos, cache)
        out.append(int(greedy(logits[:, -1])))
    return prompt_ids + out


@torch.no_grad()
def generate_batch(model, prompts: list[list[int]], max_new_tokens: int, pad_id: int = 0):
    device = next(model.parameters()).device
    dtype = next(model.parameters()).dtype
    B, L = len(prompts), max(len(p) for p in prompts)
    ids = torch.full((B, L), pad_id, device=device, dtype=torch.long)
    pos = torch.zeros((B, L), device=device, dtype=torch.long)
    is_pad = torch.ones((B, L), device=device, dtype=torch.bool)  # True = padding (left)
    for i, p in enumerate(prompts):
        ids[i, L - len(p) :] = torch.tensor(p, device=device)
        pos[i, L - len(p) :] = torch.arange(len(p), device=device)
        is_pad[i, L - len(p) :] = False

    blocked = torch.triu(torch.ones(L, L, device=device, dtype=torch.bool), diagonal=1)[None] | is_pad[:, None, :]
    d = torch.arange(L, device=device)
    blocked[:, d, d] = False  # every row keeps itself: no all -inf row
    mask = torch.where(blocked, float("-inf"), 0.0).unsqueeze(1).to(dtype)  # (B, 1, L, L)
    logits, cache = model(ids, pos, attn_mask=mask)
    nxt = greedy(logits[:, -1])
    outs = [[int(nxt[i])] for i in range(B)]
    lengths = [len(p) for p in prompts]

    for _ in range(max_new_tokens - 1):
        step_pos = torch.tensor([[lengths[i] + len(outs[i]) - 1] for i in range(B)], device=device)
        is_pad = torch.cat([is_pad, torch.zeros((B, 1), device=device, dtype=torch.bool)], dim=1)
        step_mask = torch.where(is_pad, float("-inf"), 0.0)[:, None, None, :].to(dtype)  # (B, 1, 1, kv_len)
        logits, cache = model(nxt, step_pos, cache, step_mask)
        nxt = greedy(logits[:, -1])
        for i in range(B):
            outs[i].append(int(nxt[i]))
    return [p + o for p, o in zip(prompts, outs)]
