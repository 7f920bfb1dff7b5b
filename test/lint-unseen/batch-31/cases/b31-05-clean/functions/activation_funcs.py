import numpy as np
# activation functions


class Sigmoid:
    def __init__(self):
        self.name = 'sigmoid'

    def function(self, x):
        return 1 / (1 + np.exp(-x))

    def function_prime(self, x):
        sig = self.function(x)
        return sig * (1 - sig)


class SoftMax:
    def __init__(self):
        self.name = 'softmax'

    # expects x of shape (batch, row, axis to sum over)
    def function(self, x: np.array):
        # numerical stability
        m = np.max(x, axis=2, keepdims=True)
        numerator = np.exp(x - m)
        denominator = np.sum(numerator, axis=2, keepdims=True)
        return numerator / denominator

    def function_prime(self, x: np.array):
        val = self.function(x) * (1 - self.function(x))
        return val
