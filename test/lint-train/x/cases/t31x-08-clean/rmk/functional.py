from rmk.backend import xp
from rmk.tensor import Tensor


def softmax(x, axis=-1):
    """Numerically stable softmax along `axis`; backward is the softmax Jacobian's JVP."""
    shifted = x.data - x.data.max(axis=axis, keepdims=True)
    exp_x = xp.exp(shifted)
    p = exp_x / exp_x.sum(axis=axis, keepdims=True)
    out = Tensor(p, (x,), "softmax")

    def _backward():
        g = out.grad
        x.grad += p * (g - (g * p).sum(axis=axis, keepdims=True))

    out._backward = _backward
    return out
