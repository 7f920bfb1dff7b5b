import torch

MAX_LEN = 50


def pad_masking(matrix, inputs_lengths):
    """Keep mask over (query, key) pairs of real steps; -inf elsewhere."""
    mask = torch.ones(matrix.size(), requires_grad=False, device=matrix.device)
    for i, length in enumerate(inputs_lengths):
        if length < MAX_LEN:
            mask[i, length:, :] = 0
            mask[i, :, length:] = 0
    masked = mask * matrix
    return masked.masked_fill(mask == 0, float("-inf"))
