import numpy as np


class Tensor:
    def __init__(self, data):
        self.data = np.asarray(data, dtype=np.float32)

    def masked_fill(self, mask, value):
        # torch's convention: write value where mask is True
        return Tensor(np.where(mask.data if isinstance(mask, Tensor) else mask, value, self.data))

    def softmax(self, axis=-1):
        e = np.exp(self.data - self.data.max(axis=axis, keepdims=True))
        return Tensor(e / e.sum(axis=axis, keepdims=True))


def attention(q, k, v, pad):
    # q, k, v: (S, D) arrays; pad: (S,) bool True at padding
    s = Tensor(q @ k.T / np.sqrt(q.shape[1]))
    w = s.masked_fill(pad[None, :], -1e9).softmax(-1)
    return w.data @ v
