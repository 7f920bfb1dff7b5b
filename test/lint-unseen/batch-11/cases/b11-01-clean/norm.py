import numpy as np


def softmax_last(a):
    """Softmax over the last axis of an array with at least two axes."""
    shifted = a - np.max(a, axis=-1, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=-1, keepdims=True)


def softmax_columns(a):
    """Softmax of every column of a 2-D array: each column sums to one."""
    shifted = a - np.max(a, axis=0, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=0, keepdims=True)
