import numpy as np
import torch
import torch.nn.functional as F


def lengths_to_mask(lengths, use_cuda=False, ones_on_valid=False):
    """(batch, max_len) uint8 mask. By default the *padding* positions are 1 and real tokens 0."""
    batch, longest = len(lengths), max(lengths)
    mask = np.zeros((batch, longest), dtype=np.uint8)
    for row, n in enumerate(lengths):
        if ones_on_valid:
            mask[row, :n] = 1
        else:
            mask[row, n:] = 1
    mask = torch.from_numpy(mask).bool()
    return mask.cuda() if use_cuda else mask


def luong_dot_attention(h_t, memory, memory_proj, pad_mask=None):
    """h_t: (batch, hid); memory: (batch, src_len, 2 * hid); memory_proj: (batch, src_len, hid)."""
    scores = torch.bmm(memory_proj, h_t.unsqueeze(2)).squeeze(2)  # (batch, src_len)
    if pad_mask is not None:
        scores = scores.masked_fill(pad_mask, -float("inf"))
    alpha = F.softmax(scores, dim=-1)
    context = torch.bmm(alpha.unsqueeze(1), memory).squeeze(1)
    return context, alpha
