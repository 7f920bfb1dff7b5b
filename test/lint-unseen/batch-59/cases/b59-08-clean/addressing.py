"""Small tensor helpers for content-based memory addressing."""

import torch
import torch.nn.functional as F

EPS = 1e-6


def cosine_scores(memory, keys, p=2):
    """Batchwise cosine similarity.

    memory: (b, m, w) memory rows; keys: (b, r, w) one key per head.
    Returns (b, r, m): the similarity of every head's key to every memory row.
    """
    mem_norm = torch.norm(memory, p, 2, keepdim=True).expand_as(memory) + EPS
    key_norm = torch.norm(keys, p, 2, keepdim=True).expand_as(keys) + EPS
    dots = torch.bmm(memory, keys.transpose(1, 2)).transpose(1, 2)
    norms = torch.bmm(mem_norm, key_norm.transpose(1, 2)).transpose(1, 2)
    return dots / (norms + EPS)


def softmax_along(x, axis=1):
    """Softmax over `axis` of an n-d tensor, computed on a 2-d view whose rows are that axis."""
    moved = x.transpose(axis, x.dim() - 1)
    shape = moved.size()
    flat = F.softmax(moved.contiguous().view(-1, shape[-1]))
    return flat.view(*shape).transpose(axis, x.dim() - 1)


def oneplus(x):
    return 1 + F.relu(x)
