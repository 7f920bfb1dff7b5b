import math
import torch


def attention_exp2(q, k, v, sm_scale=None):
    """Reference of a flash kernel that works in base 2: the scale carries log2(e), the softmax is exp2."""
    # q, k, v: (B, H, T, d)
    if sm_scale is None:
        sm_scale = 1.0 / math.sqrt(q.shape[-1])
    qk_scale = sm_scale * 1.44269504
    s = torch.matmul(q, k.transpose(-1, -2)) * qk_scale
    m = s.amax(dim=-1, keepdim=True)
    p = torch.exp2(s - m)
    p = p / p.sum(dim=-1, keepdim=True)
    return p @ v
