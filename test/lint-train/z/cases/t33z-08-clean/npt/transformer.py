import numpy as np

from npt.activations import ReLU
from npt.attention import SelfAttention
from npt.basic import LayerNorm, Linear, Module


def generate_tril_mask(shape):
    return np.zeros(shape) + np.tril(np.ones(shape[-2:]))  # broadcast to the scores' shape


class SubBlock(Module):
    def __init__(self, sublayer):
        self.sublayer = sublayer
        self.norm = LayerNorm()

    def forward(self, input):
        return self.norm(self.sublayer(input) + input)

    def backward(self, next):
        d = self.norm.backward(next)
        return d + self.sublayer.backward(d)


class FeedForward(Module):
    def __init__(self, d_model, d_ff):
        self.layers = [Linear(d_model, d_ff), ReLU(), Linear(d_ff, d_model, bias=False)]

    def forward(self, input):
        for layer in self.layers:
            input = layer(input)
        return input

    def backward(self, next):
        for layer in reversed(self.layers):
            next = layer.backward(next)
        return next


class EncoderBlock(Module):
    def __init__(self, n_heads, d_model, d_hidden, d_ff):
        self.sb1 = SubBlock(SelfAttention(n_heads, d_model, d_hidden))
        self.sb2 = SubBlock(FeedForward(d_model, d_ff))

    def forward(self, x):
        return self.sb2(self.sb1(x))

    def backward(self, next):
        return self.sb1.backward(self.sb2.backward(next))


class CausalBlock(Module):
    def __init__(self, n_heads, d_model, d_hidden, d_ff):
        self.sb1 = SubBlock(SelfAttention(n_heads, d_model, d_hidden, generate_tril_mask))
        self.sb2 = SubBlock(FeedForward(d_model, d_ff))

    def forward(self, x):
        return self.sb2(self.sb1(x))

    def backward(self, next):
        return self.sb1.backward(self.sb2.backward(next))
