import torch


def softmax(x, i):
    shifted = x - torch.max(x, dim=i, keepdim=True)[0]
    return torch.exp(shifted) / torch.sum(torch.exp(shifted), dim=i, keepdim=True)
