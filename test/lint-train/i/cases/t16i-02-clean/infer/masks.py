import torch


def causal_padding_bias(pad_mask, n_queries, dtype):
    """Additive (B, 1, Tq, Tk) bias: finfo.min above the diagonal and on pad columns (pad_mask True = pad)."""
    floor = torch.finfo(dtype).min
    causal = torch.triu(
        torch.full((n_queries, pad_mask.shape[1]), floor, device=pad_mask.device, dtype=dtype),
        diagonal=1,
    )
    pad_bias = torch.where(
        pad_mask,
        torch.tensor(floor, device=pad_mask.device, dtype=dtype),
        torch.tensor(0.0, device=pad_mask.device, dtype=dtype),
    )
    # two floors summed overflow to -inf: clamp back so every row stays finite
    bias = (causal.unsqueeze(0) + pad_bias.unsqueeze(1)).clamp(min=floor)
    return bias.unsqueeze(1)


def left_pad(prompts, pad_id, dtype=torch.float32):
    n = len(prompts)
    width = max(len(p) for p in prompts)
    ids = torch.full((n, width), pad_id, dtype=torch.long)
    real = torch.zeros((n, width), dtype=torch.bool)
    for i, p in enumerate(prompts):
        ids[i, width - len(p):] = torch.tensor(p, dtype=torch.long)
        real[i, width - len(p):] = True
    pad_mask = ~real
    positions = (real.cumsum(dim=-1) - 1).clamp(min=0)
    return ids, positions, causal_padding_bias(pad_mask, width, dtype), pad_mask


def decode_bias(pad_mask, kv_len, dtype):
    """(B, 1, 1, kv_len): the prompt's padding columns stay masked, every generated column is visible."""
    n, prompt_len = pad_mask.shape
    floor = torch.finfo(dtype).min
    head = torch.where(pad_mask, torch.tensor(floor, dtype=dtype), torch.tensor(0.0, dtype=dtype))
    tail = torch.zeros((n, kv_len - prompt_len), dtype=dtype)
    return torch.cat([head, tail], dim=-1).unsqueeze(1).unsqueeze(1)
