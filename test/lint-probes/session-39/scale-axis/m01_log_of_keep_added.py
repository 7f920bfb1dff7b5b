import math
import torch


def attend(q, k, v, lengths):
    # q, k, v: (B, H, T, d); lengths: (B,)
    S = k.shape[2]
    keep = torch.arange(S, device=k.device)[None, :] < lengths[:, None]  # (B, S) bool
    s = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    s = s + torch.log(keep.float())[:, None, None, :]  # 0 where kept, -inf where padded
    return s.softmax(-1) @ v
