from copy import deepcopy

import torch


def following_mask(size):
    "Mask out subsequent positions."
    attn_shape = (1, size, size)
    return torch.tril(torch.ones(attn_shape)).type(torch.uint8)


def clones(module, N):
    return torch.nn.ModuleList([deepcopy(module) for _ in range(N)])
