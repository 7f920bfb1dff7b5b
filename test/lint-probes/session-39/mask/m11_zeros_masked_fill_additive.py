import torch


def padding_bias(ids, pad_id, dtype=torch.float32):
    # (B, S) -> (B, 1, 1, S): 0 at tokens, -inf at padding
    bias = torch.zeros(ids.shape, dtype=dtype, device=ids.device)
    bias = bias.masked_fill(ids == pad_id, float("-inf"))
    return bias[:, None, None, :]


def attend(q, k, v, ids, pad_id):
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5  # (B, H, S, S)
    s = s + padding_bias(ids, pad_id, s.dtype)
    return s.softmax(-1) @ v
