# case: b14-05-mask
# modelled-on: cameron-cs/transformer-numpy https://github.com/cameron-cs/transformer-numpy/commit/4c0dd187b82818f8823544d71186a02aaf2bef9a
# label: buggy
# class: real-bug
# pattern: a Transformer written on a home-made NumPy autograd: a Tensor class (another module) with torch-like methods (transpose, view, masked_fill, __eq__ returning a boolean Tensor) and a Softmax module over the last axis (a third module); the scaled-dot-product block transposes the keys' last two axes, divides q @ kT by sqrt(d_k) and, with a 0/1 mask whose docstring says 0 = masked (ignored) and 1 = active, calls score.masked_fill(mask == 0, -inf) before the softmax
# why: buggy: the Tensor's own masked_fill is np.where(mask, self, value), which keeps the score where the mask is True and writes the value where it is False (its unit test asserts exactly that), the opposite of torch's masked_fill; so masked_fill(mask == 0, -inf) keeps the masked positions and writes -inf over every active one: each query attends only to the positions the mask meant to hide (padding or the future), and rows with no masked position become all -inf. The call is written with torch's convention in mind (the comment: "set masked positions to -inf"); the repository's mask test only checks that the mask changes the output. No fix was found; the label rests on the docstrings, the comment and the Tensor's tested semantics
# source: https://github.com/cameron-cs/transformer-numpy https://github.com/cameron-cs/transformer-numpy/commit/4c0dd187b82818f8823544d71186a02aaf2bef9a src/transformer/layer/attention/scaled_dot_product.py
import math

from autograd.nn import Dropout, Module, Softmax
from autograd.tensor import Tensor


class ScaledDotProductAttention(Module):
    """q, k: (B, H, L, d_k); v: (B, H, L, d_v); mask: 0/1, broadcast to (B, H, L_q, L_k), 0 = masked (ignored), 1 = active."""

    def __init__(self, dropout: float):
        super().__init__()
        self.softmax = Softmax()
        self.dropout = Dropout(dropout)

    def forward(self, q: Tensor, k: Tensor, v: Tensor, mask=None):
        d_k = q.shape()[-1]
        kT = k.transpose(2, 3)  # (B, H, d_k, L_k)
        score = (q @ kT) / math.sqrt(d_k)  # (B, H, L_q, L_k)
        if mask is not None:
            # set masked positions to -inf before the softmax
            score = score.masked_fill(mask == 0, float("-inf"))  # expect: ATT002
        weights = self.dropout(self.softmax(score))
        return weights @ v, weights
