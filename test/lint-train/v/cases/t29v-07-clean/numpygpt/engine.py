"""Parameter: a NumPy array with a gradient and a backward closure (micrograd-style)."""
import numpy as np


class Parameter:
    def __init__(self, data=None, shape=None, _children=()):
        if data is None:
            data = np.random.randn(*shape) * 0.02
        self.data = np.asarray(data, dtype=np.float64) if not isinstance(data, np.ndarray) else data
        self.grad = np.zeros_like(self.data, dtype=np.float64)
        self._prev = set(_children)
        self._backward = lambda: None

    @property
    def shape(self):
        return self.data.shape

    @property
    def dim(self):
        return self.data.ndim

    def __add__(self, other):
        other = other if isinstance(other, Parameter) else Parameter(np.asarray(other, dtype=np.float64))
        return Parameter(self.data + other.data, _children=(self, other))

    def __mul__(self, other):
        other = other if isinstance(other, Parameter) else Parameter(np.asarray(other, dtype=np.float64))
        return Parameter(self.data * other.data, _children=(self, other))

    __rmul__ = __mul__

    def __pow__(self, k):
        return Parameter(self.data ** k, _children=(self,))

    def sum(self, dim, keepdim=False):
        return Parameter(self.data.sum(axis=dim, keepdims=keepdim), _children=(self,))

    def split(self, dim):
        """Unstack along `dim` (a tuple of slices, like tuple(t) in torch)."""
        return tuple(Parameter(np.take(self.data, i, axis=dim), _children=(self,)) for i in range(self.shape[dim]))

    def masked_fill(self, mask, value):
        return Parameter(np.where(mask, value, self.data), _children=(self,))
