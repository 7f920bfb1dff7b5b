try:
    import cupy as cp
except ImportError:
    import numpy as cp


class Softmax:
    def __init__(self, axis: int = 1):
        self.axis = axis
        self.output = None

    def forward(self, x):
        shifted = x - cp.max(x, axis=self.axis, keepdims=True)
        e = cp.exp(shifted)
        self.output = e / cp.sum(e, axis=self.axis, keepdims=True)
        return self.output

    def backward(self, grad):
        return (grad - (grad * self.output).sum(self.axis, keepdims=True)) * self.output


class Linear:
    def __init__(self, d_in: int, d_out: int, batch_size: int, lr: float):
        self.weight = cp.random.standard_normal((d_in, d_out)).astype(cp.float32) * 0.02
        self.bias = cp.zeros((d_out,), dtype=cp.float32)
        self.lr = lr

    def forward(self, x):
        self.input = x
        return x @ self.weight + self.bias

    def backward(self, grad):
        self.grad_w = (self.input.reshape(-1, self.input.shape[-1]).T @ grad.reshape(-1, grad.shape[-1]))
        self.grad_b = grad.reshape(-1, grad.shape[-1]).sum(0)
        return grad @ self.weight.T
