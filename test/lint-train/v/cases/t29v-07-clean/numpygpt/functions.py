import numpy as np
from einops import rearrange as erearrange

from .engine import Parameter


def exp(x: Parameter) -> Parameter:
    out = Parameter(np.exp(x.data), _children=(x,))

    def _backward():
        x.grad += out.data * out.grad

    out._backward = _backward
    return out


def softmax(x: Parameter, dim=-1) -> Parameter:
    e = exp(x)
    return e * (e.sum(dim, keepdim=True) ** -1)


def einsum(ptrn: str, *args: Parameter) -> Parameter:
    return Parameter(np.einsum(ptrn, *[a.data for a in args]), _children=tuple(args))


def rearrange(x: Parameter, ptrn, **kwargs) -> Parameter:
    out = Parameter(erearrange(x.data, ptrn, **kwargs), _children=(x,))

    def _backward():
        in_ptrn, out_ptrn = ptrn.split("->")
        x.grad += erearrange(out.grad, f"{out_ptrn}->{in_ptrn}", **kwargs)

    out._backward = _backward
    return out


def layer_norm(x: Parameter, eps: float = 1e-5) -> Parameter:
    mean = x.data.mean(-1, keepdims=True)
    var = x.data.var(-1, keepdims=True)
    return Parameter((x.data - mean) / np.sqrt(var + eps), _children=(x,))


def gelu(x: Parameter) -> Parameter:
    d = x.data
    return Parameter(0.5 * d * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (d + 0.044715 * d ** 3))), _children=(x,))
