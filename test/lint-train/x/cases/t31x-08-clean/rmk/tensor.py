from rmk.backend import xp, DTYPE


class Tensor:
    """A minimal array with hand-written backward closures (only the ops the attention uses)."""

    def __init__(self, data, _parents=(), _op=""):
        self.data = xp.asarray(data, dtype=DTYPE)
        self.grad = xp.zeros_like(self.data)
        self._parents = _parents
        self._op = _op
        self._backward = lambda: None

    def __add__(self, other):
        other_data = other.data if isinstance(other, Tensor) else other
        out = Tensor(self.data + other_data, (self,), "add")

        def _backward():
            self.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        out = Tensor(self.data * other, (self,), "mul")

        def _backward():
            self.grad += out.grad * other

        out._backward = _backward
        return out

    def __matmul__(self, other):
        out = Tensor(self.data @ other.data, (self, other), "matmul")

        def _backward():
            self.grad += out.grad @ xp.swapaxes(other.data, -1, -2)
            other.grad += xp.swapaxes(self.data, -1, -2) @ out.grad

        out._backward = _backward
        return out

    def transpose(self, axes=None):
        out = Tensor(self.data.transpose(axes), (self,), "transpose")

        def _backward():
            self.grad += out.grad.transpose(xp.argsort(axes))

        out._backward = _backward
        return out

    def reshape(self, *shape):
        out = Tensor(self.data.reshape(*shape), (self,), "reshape")

        def _backward():
            self.grad += out.grad.reshape(self.data.shape)

        out._backward = _backward
        return out
