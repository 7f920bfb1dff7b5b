import numpy as np


class Parameter:
    def __init__(self, data):
        self.data = data
        self.grad = np.zeros_like(data)


class Module:
    def __call__(self, input):
        return self.forward(input)


class MatMul(Module):
    def forward(self, input):
        self.first, self.second = input
        return np.matmul(*input)

    def backward(self, next):
        return (
            next @ self.second.swapaxes(-1, -2),
            self.first.swapaxes(-1, -2) @ next,
        )


class Linear(Module):
    def __init__(self, in_chan, out_chan, bias=True):
        self.W = Parameter(2 * np.random.rand(in_chan, out_chan) - 1)
        self.b = Parameter(2 * np.random.rand(1, out_chan) - 1) if bias else None
        self.mm = MatMul()

    def forward(self, input):
        return self.mm([input, self.W.data]) + (self.b.data if self.b is not None else 0)

    def backward(self, next):
        d_x, d_w = self.mm.backward(next)
        self.W.grad += d_w.reshape(-1, *self.W.grad.shape).sum(axis=0)
        if self.b is not None:
            self.b.grad += next.reshape(-1, *self.b.grad.shape).sum(axis=0)
        return d_x


class LayerNorm(Module):
    def forward(self, input):
        mu = input.mean(axis=-1, keepdims=True)
        self.sigma = input.std(axis=-1, keepdims=True)
        self.shifted = input - mu
        return self.shifted / self.sigma

    def backward(self, next):
        n = self.shifted.shape[-1]
        sigma = self.sigma[..., np.newaxis]
        xs = self.shifted[..., np.newaxis]
        jac = -(xs * xs.swapaxes(-1, -2) + sigma ** 2) / sigma ** 3 / n
        jac[..., range(jac.shape[-2]), range(jac.shape[-1])] += 1 / sigma.squeeze(-1)
        return (jac @ next[..., np.newaxis]).squeeze(-1)
