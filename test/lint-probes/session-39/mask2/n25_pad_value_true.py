import torch
import torch.nn.functional as F


def attend(q, k, v, ids, pad_id):
    keep = ids != pad_id  # (B, S)
    keep = F.pad(keep, (1, 0), value=True)  # a memory token in front, always visible
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = s.masked_fill(~keep[:, None, None, :], float("-inf"))
    return s.softmax(-1) @ v
