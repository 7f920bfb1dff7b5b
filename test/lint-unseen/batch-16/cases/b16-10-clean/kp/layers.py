import torch


class GetMask(torch.nn.Module):
    """1.0 where the token is not padding, 0.0 on padding; same size as the input ids."""

    def __init__(self, pad_idx=0):
        super().__init__()
        self.pad_idx = pad_idx

    def forward(self, x):
        return torch.ne(x, self.pad_idx).float()


def masked_softmax(x, m=None, axis=-1):
    """Softmax with an optional 0/1 keep mask: masked entries get exactly zero weight."""
    x = torch.clamp(x, min=-15.0, max=15.0)
    if m is not None:
        m = m.float()
        x = x * m
    e_x = torch.exp(x - torch.max(x, dim=axis, keepdim=True)[0])
    if m is not None:
        e_x = e_x * m
    return e_x / (torch.sum(e_x, dim=axis, keepdim=True) + 1e-6)
