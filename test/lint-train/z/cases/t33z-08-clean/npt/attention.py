# case: t33z-08-clean
# modelled-on: rziga/numpy-is-all-you-need https://github.com/rziga/numpy-is-all-you-need/commit/6a4e1f5e0f2e31815c44529dedf4344a5e5c8aca
# label: correct
# class: clean
# pattern: a Transformer written in NumPy with hand-written backward passes: each attention head computes MatMul([Q, K.swapaxes(-1, -2)]) / sqrt(d_hidden), and, when a mask function is given (a lower-triangular ones mask, 1 = may attend, built in another module for the decoder's self-attention), writes -1e11 into the scores where mask == 0 by index assignment, then a Softmax module (another module) over the last axis and MatMul with V; the backward pass runs the softmax Jacobian, divides by the same scale and multiplies the gradient by the 0/1 mask before the MatMul backward, and swaps the key gradient back
# why: correct: the index assignment hides the positions above the diagonal (mask == 0) before the softmax, in float64 where -1e11 is an ordinary large negative number; the scale is the per-head width; in the backward pass the masked scores were overwritten by a constant, so their gradient is zero, which is what multiplying the score gradient by the 0/1 mask does; it is not a mask applied to the weights after the softmax. (The original's cross-attention block, which takes its queries and keys from the encoder memory and its values from the decoder, is left out of the case)
# looks-like: ATT002, ATT005, ATT006, ATT007
# source: https://github.com/rziga/numpy-is-all-you-need https://github.com/rziga/numpy-is-all-you-need/commit/6a4e1f5e0f2e31815c44529dedf4344a5e5c8aca nn/layers/attention.py
import numpy as np

from npt.activations import Softmax
from npt.basic import Linear, MatMul, Module


class AttentionHead(Module):
    def __init__(self, d_model, d_hidden, mask_fcn=None):
        self.lin_Q = Linear(d_model, d_hidden, bias=False)
        self.lin_K = Linear(d_model, d_hidden, bias=False)
        self.lin_V = Linear(d_model, d_hidden, bias=False)
        self.mm1 = MatMul()
        self.mm2 = MatMul()
        self.sm = Softmax()
        self.mask_fcn = mask_fcn
        self.mask = None
        self.scale = d_hidden ** 0.5

    def forward(self, input):
        Q, K, V = self.lin_Q(input[0]), self.lin_K(input[1]), self.lin_V(input[2])
        x = self.mm1([Q, K.swapaxes(-1, -2)]) / self.scale
        if self.mask_fcn is not None:
            self.mask = self.mask_fcn(x.shape)
            x[self.mask == 0] = -1e11
        x = self.sm(x)
        return self.mm2([x, V])

    def backward(self, next):
        d, d_V = self.mm2.backward(next)
        d = self.sm.backward(d) / self.scale
        if self.mask is not None:
            d = self.mask * d
        d_Q, d_K_T = self.mm1.backward(d)
        return (
            self.lin_Q.backward(d_Q),
            self.lin_K.backward(d_K_T.swapaxes(-1, -2)),
            self.lin_V.backward(d_V),
        )


class MultiHeadAttention(Module):
    def __init__(self, n_heads, d_model, d_hidden, mask_fcn=None):
        self.heads = [AttentionHead(d_model, d_hidden, mask_fcn) for _ in range(n_heads)]
        self.lin = Linear(n_heads * d_hidden, d_model, bias=False)

    def forward(self, input):
        return self.lin(np.concatenate([head(input) for head in self.heads], axis=-1))

    def backward(self, next):
        d = self.lin.backward(next)
        parts = np.split(d, len(self.heads), axis=-1)
        grads = [head.backward(p) for head, p in zip(self.heads, parts)]
        return np.sum(grads, axis=0)


class SelfAttention(MultiHeadAttention):
    def forward(self, input):
        return super().forward([input, input, input])

    def backward(self, next):
        return np.sum(super().backward(next), axis=0)
