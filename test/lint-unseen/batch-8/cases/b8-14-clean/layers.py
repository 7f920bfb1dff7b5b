# case: b8-14-clean
# modelled-on: jonas7654/MIDI-Transformer-from-scratch https://github.com/jonas7654/MIDI-Transformer-from-scratch/commit/e893ee7e71f260e02d90d309a2b2e89ef54414e1
# label: correct
# class: clean
# pattern: a CuPy/NumPy GPT for MIDI tokens with hand-written backward passes: the attention keeps an attribute scale = sqrt(d_model) it never uses and scales the logits by 1/sqrt(k.shape[-1]); the causal mask is a float tril buffer and the logits are filled where(mask == 0, -1e9, attn) before a Softmax layer whose default axis is 1 but which is built with axis=-1; the backward multiplies the gradient by the mask
# why: correct: the scale actually applied is 1/sqrt(head width) (sqrt(d_model) is dead code); where(mask == 0, ...) fills the future positions of a keep mask; the float32 -1e9 fill is representable and each row keeps its diagonal; the softmax normalises over the last (key) axis; training windows are always context_size long, so the buffer matches the scores
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT007
# source: https://github.com/jonas7654/MIDI-Transformer-from-scratch https://github.com/jonas7654/MIDI-Transformer-from-scratch/commit/e893ee7e71f260e02d90d309a2b2e89ef54414e1 CUPY/models/GoePT/layers.py
import math

try:
    import cupy as cp
except ImportError:
    import numpy as cp

from functional import Linear, Softmax


class MultiHeadAttention:
    def __init__(self, d_model: int, context_size: int, n_heads: int, batch_size: int, lr: float = 1e-3):
        if d_model % n_heads != 0:
            raise ValueError("d_model must be divisible by n_heads")
        self.n_heads = n_heads
        self.depth = d_model // n_heads
        self.batch_size = batch_size
        self.scale = math.sqrt(d_model)
        self.softmax_attn = Softmax(axis=-1)
        self.c_attn = Linear(d_model, 3 * d_model, batch_size, lr)
        self.c_proj = Linear(d_model, d_model, batch_size, lr)
        self.mask = cp.tril(cp.ones((context_size, context_size), dtype=cp.float32)).reshape(1, 1, context_size, context_size)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = cp.split(self.c_attn.forward(x), 3, axis=2)
        self.q = q.reshape((B, T, self.n_heads, C // self.n_heads)).transpose(0, 2, 1, 3)  # (B, nh, T, hs)
        self.k = k.reshape((B, T, self.n_heads, C // self.n_heads)).transpose(0, 2, 1, 3)
        self.v = v.reshape((B, T, self.n_heads, C // self.n_heads)).transpose(0, 2, 1, 3)

        attn = (self.q @ self.k.transpose(0, 1, 3, 2)) * (1.0 / math.sqrt(self.k.shape[-1]))
        attn = cp.where(self.mask == 0, -1e9, attn)
        self.attn = self.softmax_attn.forward(attn)
        y = self.attn @ self.v
        y = cp.ascontiguousarray(y).transpose(0, 2, 1, 3).reshape(B, -1, self.n_heads * self.depth)
        return self.c_proj.forward(y)

    def backward(self, grad):
        B, T, C = grad.shape
        grad = self.c_proj.backward(grad)
        grad = cp.ascontiguousarray(grad).reshape(B, T, self.n_heads, -1).transpose(0, 2, 1, 3)
        grad_v = self.attn.transpose(0, 1, 3, 2) @ grad
        grad = grad @ self.v.transpose(0, 1, 3, 2)
        grad = self.softmax_attn.backward(grad)
        grad = grad * self.mask  # masked logits get no gradient
        s = 1.0 / math.sqrt(self.k.shape[-1])
        grad_k = (s * (self.q.transpose(0, 1, 3, 2) @ grad)).transpose(0, 1, 3, 2)
        grad_q = s * (grad @ self.k)
        parts = [g.transpose(0, 2, 1, 3).reshape(B, T, C) for g in (grad_q, grad_k, grad_v)]
        return self.c_attn.backward(cp.concatenate(parts, axis=2))
