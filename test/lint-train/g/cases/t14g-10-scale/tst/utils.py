import copy

from torch import nn


def clone_layers(module, n):
    """Produce n independent but identical layers."""
    return nn.ModuleList([copy.deepcopy(module) for _ in range(n)])
