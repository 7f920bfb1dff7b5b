import torch


def mask_(matrices, maskval=0.0, mask_diagonal=True):
    """Masks out, in place, all values of the batch of matrices where i <= j holds (i < j if mask_diagonal is false)."""
    h, w = matrices.size(-2), matrices.size(-1)
    indices = torch.triu_indices(h, w, offset=0 if mask_diagonal else 1)
    matrices[..., indices[0], indices[1]] = maskval
