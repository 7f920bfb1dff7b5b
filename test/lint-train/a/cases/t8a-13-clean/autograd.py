import numpy as np


class Tensor:
    def __init__(self, data, requires_grad: bool = True):
        self.data = np.asarray(data, dtype=np.float64)
        self.requires_grad = requires_grad

    @property
    def shape(self):
        return self.data.shape

    def __add__(self, other):
        return Tensor(self.data + (other.data if isinstance(other, Tensor) else other))

    def __truediv__(self, other):
        return Tensor(self.data / (other.data if isinstance(other, Tensor) else other))

    def __matmul__(self, other):
        return Tensor(self.data @ other.data)

    def exp(self):
        return Tensor(np.exp(self.data))

    def sum(self, axis=None, keepdims=False):
        return Tensor(self.data.sum(axis=axis, keepdims=keepdims))

    def reshape(self, *shape):
        return Tensor(self.data.reshape(*shape))

    def transpose(self, axes):
        return Tensor(self.data.transpose(axes))

    def swapaxes(self, a, b):
        return Tensor(self.data.swapaxes(a, b))


def softmax(x: Tensor, axis: int = -1) -> Tensor:
    shifted = x + Tensor(-np.max(x.data, axis=axis, keepdims=True), requires_grad=False)
    e = shifted.exp()
    return e / e.sum(axis=axis, keepdims=True)


def causal_mask(size: int) -> np.ndarray:
    return np.tril(np.ones((size, size), dtype=bool))


class Module:
    pass


class Linear(Module):
    def __init__(self, d_in: int, d_out: int, rng: np.random.Generator):
        self.weight = Tensor(rng.normal(0.0, 0.02, (d_in, d_out)))

    def __call__(self, x: Tensor) -> Tensor:
        return x @ self.weight
