import torch
import torch.nn as nn

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


def mask_logits(target, mask):
    mask = mask.type(torch.float32)
    return target * mask + (1 - mask) * (-1e30)


class Activation(nn.Module):
    """Optional activation: identity when none is given."""

    def __init__(self, activation=None):
        super().__init__()
        self.activation = activation

    def forward(self, x):
        return self.activation(x) if self.activation else x

    def __bool__(self):
        return self.activation is not None
