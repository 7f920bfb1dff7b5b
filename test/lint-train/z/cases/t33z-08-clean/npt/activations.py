import numpy as np

from npt.basic import Module


class ReLU(Module):
    def forward(self, input):
        self.on = input > 0
        return input * self.on

    def backward(self, next):
        return next * self.on


class Softmax(Module):
    """Softmax over the last axis; backward multiplies by the full Jacobian of each row."""

    def forward(self, input):
        e = np.exp(input - input.max(axis=-1, keepdims=True))
        self.out = e / e.sum(axis=-1, keepdims=True)
        return self.out

    def backward(self, next):
        o = self.out[..., np.newaxis]                 # [..., rows, features, 1]
        jac = -o * o.swapaxes(-1, -2)                 # [..., rows, features, features]
        jac[..., range(jac.shape[-2]), range(jac.shape[-1])] += self.out
        return (jac @ next[..., np.newaxis]).squeeze(-1)
