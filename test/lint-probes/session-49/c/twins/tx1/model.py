import torch
import torch.nn.functional as F
from utils import restrict


def attend(q, k, v, lengths):
    s = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
    w = F.softmax(s, dim=-1)
    keep = torch.arange(k.shape[1])[None, :] < lengths[:, None]
    w = restrict(w, keep[:, None, :].float())
    return w @ v
