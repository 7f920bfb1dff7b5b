import torch


class Normalizer(torch.nn.Module):
    """Turns a tensor of scores into weights; subclasses choose how."""
