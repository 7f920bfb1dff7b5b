import numpy as np


def softmax(x, dim=None):
    # subtract the max along the same axis for stability; keepdims keeps the axis for broadcasting
    e_x = np.exp(x - np.max(x, axis=dim, keepdims=True))
    return e_x / e_x.sum(axis=dim, keepdims=True)
