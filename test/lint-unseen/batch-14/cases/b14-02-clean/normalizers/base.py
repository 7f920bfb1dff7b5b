import torch


class BaseNormalizer(torch.nn.Module):
    """Maps attention scores to weights."""
