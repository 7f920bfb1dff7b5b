import torch


def masked_normalise(energies, valid, axis):
    """Softmax over `axis`, with invalid entries excluded; valid has the energies' shape."""
    energies = energies.masked_fill(~valid, -1e9)
    return torch.softmax(energies, dim=axis)
