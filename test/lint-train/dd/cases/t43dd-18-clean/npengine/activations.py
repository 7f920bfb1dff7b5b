import numpy as np


def softmax(x, axis=-1):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)


def softmax_backward(probs, grad, axis=-1):
    return probs * (grad - np.sum(grad * probs, axis=axis, keepdims=True))
