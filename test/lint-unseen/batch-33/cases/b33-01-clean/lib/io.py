import numpy as np
import torch

from lib.loaders import get_loader


def load_adj(dataset):
    loader = get_loader(dataset)
    return torch.FloatTensor(loader.load_adj())


def load_adj_mask(dataset):
    # a sensor pair whose (Gaussian-kernel) adjacency is negligible is blocked
    adj = load_adj(dataset)
    return torch.ByteTensor(adj <= 0.01)


def gen_subsequent_time(time, length):
    return torch.stack([time + i + 1 for i in range(length)], 1)


def gen_subsequent_mask(length=24):
    mask = np.triu(np.ones((length, length)), k=1).astype('uint8')
    return torch.from_numpy(mask)
