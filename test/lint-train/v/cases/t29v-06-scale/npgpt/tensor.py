"""A tiny NumPy tensor with the handful of ops the GPT needs (autograd left out of this excerpt)."""
import numpy as np


class Tensor:
    def __init__(self, data, _children=(), _op="", nograd=False, name=""):
        self._prev = set(_children)
        self._op = _op
        self._nograd = nograd
        self.name = f"{name}-[_op:{_op}]"
        self.data = np.array(data).astype(np.float32)
        self.grad = None if nograd else np.zeros(self.data.shape, dtype=np.float32)

    @property
    def shape(self):
        return self.data.shape

    def __add__(self, other):
        other = other if isinstance(other, Tensor) else Tensor(other, nograd=True)
        return Tensor(self.data + other.data, (self, other), "+")

    def __mul__(self, other):
        other = other if isinstance(other, Tensor) else Tensor(other, nograd=True)
        return Tensor(self.data * other.data, (self, other), "*")

    __rmul__ = __mul__

    def __truediv__(self, other):
        return Tensor(self.data / other, (self,), "/")

    def __matmul__(self, other):  # @ operator
        return Tensor(self.data @ other.data, (self, other), "@")

    def split(self, indices_or_sections, axis=0):
        return [Tensor(arr, (self,), "split") for arr in np.split(self.data, indices_or_sections, axis=axis)]

    def transpose(self, *args):
        return Tensor(self.data.transpose(*args), (self,), "transpose")

    def reshape(self, *args):
        return Tensor(self.data.reshape(*args), (self,), "reshape")

    def softmax(self):
        self.data -= np.max(self.data, axis=-1, keepdims=True)  # stability
        exp_self = np.exp(self.data)
        return Tensor(exp_self / np.sum(exp_self, axis=-1, keepdims=True), (self,), "softmax")


def Softmax(data: Tensor):
    return data.softmax()


def NewGELU(data: Tensor):
    x = data.data
    return Tensor(0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3))), (data,), "gelu")


class Model:
    training = True

    def __call__(self, x):
        return self.forward(x)


class Linear(Model):
    def __init__(self, nin, nout, nonlin=None, use_bias=True, name=""):
        self.nonlin = nonlin
        self.weight = Tensor(np.random.normal(size=(nin, nout), scale=0.02), name=name)
        self.B = Tensor(np.zeros(nout)) if use_bias else None

    def forward(self, x):
        x = x @ self.weight
        if self.B is not None:
            x = x + self.B
        return self.nonlin(x) if self.nonlin else x


class Dropout(Model):
    def __init__(self, p=0.1):
        self.p = p

    def forward(self, x):
        if not self.training or self.p == 0:
            return x
        keep = (np.random.rand(*x.shape) > self.p) / (1 - self.p)
        return x * keep


class Embedding(Model):
    def __init__(self, num_embeddings, embedding_dim):
        self.num_embeddings = num_embeddings
        self.weight = Tensor(np.random.normal(size=(num_embeddings, embedding_dim), scale=0.02))

    def forward(self, vocab_ids):
        one_hot = Tensor(np.eye(self.num_embeddings)[vocab_ids], nograd=True)
        return one_hot @ self.weight
