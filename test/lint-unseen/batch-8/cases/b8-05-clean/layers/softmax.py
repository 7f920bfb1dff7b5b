try:
    import cupy as cp
except ImportError:
    import numpy as cp


class RowSoftmax:
    def __init__(self, axis: int = -1):
        self.axis = axis

    def forward(self, x):
        e = cp.exp(x - cp.max(x, axis=self.axis, keepdims=True))
        self.y = e / cp.sum(e, axis=self.axis, keepdims=True)
        return cp.nan_to_num(self.y, nan=0.0)

    def backward(self, grad_y):
        g = self.y * (grad_y - (grad_y * self.y).sum(axis=self.axis, keepdims=True))
        return cp.nan_to_num(g, nan=0.0)
