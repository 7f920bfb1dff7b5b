# case: t8a-13-clean
# modelled-on: molinjun/mini-gpt-from-scratch https://github.com/molinjun/mini-gpt-from-scratch/commit/23cac3ec955663519792d395c893629a20af88b3
# label: correct
# class: clean
# pattern: a NumPy-only mini-GPT with its own autograd Tensor: the attention divides q @ k.swapaxes(-1, -2) by sqrt(head_dim), builds the causal mask with a helper in another module (tril of ones, True = allowed), turns it into a bias with np.where(allowed, 0.0, -1e9) wrapped as a constant Tensor, adds it and applies the module's own stable softmax over the last axis
# why: correct: where(allowed, 0, -1e9) keeps the allowed positions and pushes the future to -1e9 in float64 NumPy, where it is representable; every row keeps its diagonal; the scale is 1/sqrt of the per-head width and the softmax is over the keys
# looks-like: ATT002, ATT005, ATT006, ATT007
# source: https://github.com/molinjun/mini-gpt-from-scratch https://github.com/molinjun/mini-gpt-from-scratch/commit/23cac3ec955663519792d395c893629a20af88b3 src/model.py
import math

import numpy as np

from autograd import Linear, Module, Tensor, causal_mask, softmax


class CausalSelfAttention(Module):
    def __init__(self, n_embd: int, n_head: int, block_size: int, rng: np.random.Generator):
        if n_embd % n_head != 0:
            raise ValueError("n_embd must be divisible by n_head.")
        self.n_head = n_head
        self.head_dim = n_embd // n_head
        self.block_size = block_size
        self.q_proj = Linear(n_embd, n_embd, rng)
        self.k_proj = Linear(n_embd, n_embd, rng)
        self.v_proj = Linear(n_embd, n_embd, rng)
        self.out_proj = Linear(n_embd, n_embd, rng)

    def _split(self, x: Tensor) -> Tensor:
        b, t, c = x.shape
        return x.reshape(b, t, self.n_head, c // self.n_head).transpose((0, 2, 1, 3))

    def __call__(self, x: Tensor) -> Tensor:
        _, t, _ = x.shape
        q, k, v = self._split(self.q_proj(x)), self._split(self.k_proj(x)), self._split(self.v_proj(x))
        scores = (q @ k.swapaxes(-1, -2)) / math.sqrt(self.head_dim)
        allowed = causal_mask(t).reshape(1, 1, t, t)
        bias = np.where(allowed, 0.0, -1e9)
        weights = softmax(scores + Tensor(bias, requires_grad=False), axis=-1)
        out = weights @ v
        b, h, tt, d = out.shape
        return self.out_proj(out.transpose((0, 2, 1, 3)).reshape(b, tt, h * d))
