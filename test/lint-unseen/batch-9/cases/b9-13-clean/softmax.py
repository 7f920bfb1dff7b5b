import numpy as np


class Softmax:
    def forward(self, x):
        self.x = x
        x = x - np.max(x, axis=-1, keepdims=True)
        exp = np.exp(x)
        self.probs = exp / np.sum(exp, axis=-1, keepdims=True)
        return self.probs

    def backward(self, grad):
        dot = np.sum(grad * self.probs, axis=-1, keepdims=True)
        return self.probs * (grad - dot)
