import torch

EPS = torch.finfo().eps
