import numpy as np


class Softmax:
    def __init__(self):
        self.output = None

    def forward(self, x):
        shifted = x - np.max(x, axis=-1, keepdims=True)
        e = np.exp(shifted)
        self.output = e / np.sum(e, axis=-1, keepdims=True)
        return self.output

    def backward(self, dLdY):
        b, n_i, n_j = self.output.shape
        dLdX = np.zeros_like(self.output)
        for bi in range(b):
            for i in range(n_i):
                y = self.output[bi, i, :]
                jac = np.diag(y) - np.outer(y, y)
                dLdX[bi, i, :] = jac @ dLdY[bi, i, :]
        return dLdX
