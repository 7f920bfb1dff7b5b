import torch


def normalise(scores):
    return torch.softmax(scores, dim=-1)
