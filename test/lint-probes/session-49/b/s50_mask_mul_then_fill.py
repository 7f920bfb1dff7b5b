import torch


def din_attention(query, keys, keys_length, score_fn):
    B, T, _ = keys.shape
    scores = score_fn(query.unsqueeze(1).expand(-1, T, -1), keys).squeeze(-1)  # (B, T)
    mask = torch.arange(T, device=keys.device)[None, :] < keys_length[:, None]
    paddings = torch.full_like(scores, -(2**32) + 1)
    scores = torch.where(mask, scores, paddings)
    w = torch.softmax(scores, dim=-1)
    return torch.bmm(w.unsqueeze(1), keys).squeeze(1)
