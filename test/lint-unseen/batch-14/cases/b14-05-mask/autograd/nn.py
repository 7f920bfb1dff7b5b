import numpy as np

from autograd.tensor import Tensor


class Module:
    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)


class Softmax(Module):
    """Softmax along `axis` (default: the last one)."""

    def __init__(self, axis: int = -1):
        self.axis = axis

    def forward(self, x: Tensor) -> Tensor:
        shifted = x.data - np.max(x.data, axis=self.axis, keepdims=True)
        exp_x = np.exp(shifted)
        return Tensor(exp_x / np.sum(exp_x, axis=self.axis, keepdims=True), x.requires_grad, (x,), "softmax")


class Dropout(Module):
    def __init__(self, p: float):
        self.p = p
        self.training = True

    def forward(self, x: Tensor) -> Tensor:
        if not self.training or self.p == 0:
            return x
        keep = (np.random.rand(*x.data.shape) > self.p).astype(x.data.dtype)
        return Tensor(x.data * keep / (1 - self.p), x.requires_grad, (x,), "dropout")
