import numpy as np


class Tensor:
    """A NumPy array with a gradient and a few torch-like methods."""

    def __init__(self, data, requires_grad: bool = False, _children=(), _op: str = ""):
        self.data = np.asarray(data, dtype=float) if not isinstance(data, np.ndarray) else data
        self.requires_grad = requires_grad
        self.grad = None
        self._prev = set(_children)
        self._op = _op
        self._backward = lambda: None

    def shape(self):
        return self.data.shape

    def __eq__(self, other):
        other = other if isinstance(other, Tensor) else Tensor(other)
        return Tensor(self.data == other.data)

    def __hash__(self):
        return id(self)

    def __truediv__(self, other):
        return Tensor(self.data / (other.data if isinstance(other, Tensor) else other), self.requires_grad, (self,), "div")

    def __matmul__(self, other: "Tensor") -> "Tensor":
        return Tensor(self.data @ other.data, self.requires_grad or other.requires_grad, (self, other), "matmul")

    def transpose(self, *axes: int) -> "Tensor":
        if len(axes) == 2:
            order = list(range(self.data.ndim))
            order[axes[0]], order[axes[1]] = order[axes[1]], order[axes[0]]
            axes = tuple(order)
        return Tensor(self.data.transpose(axes), self.requires_grad, (self,), "transpose")

    def masked_fill(self, mask: "Tensor", value: float) -> "Tensor":
        """Keeps this tensor where `mask` is true and writes `value` everywhere else."""
        out_data = np.where(mask.data, self.data, value)
        out = Tensor(out_data, self.requires_grad or mask.requires_grad, (self,), "masked_fill")

        def _backward():
            if self.requires_grad:
                grad = np.where(mask.data, out.grad, 0)
                self.grad = grad if self.grad is None else self.grad + grad

        out._backward = _backward
        return out
