# case: b27-09-clean
# modelled-on: csd81/attention-is-all-you-need-numpy https://github.com/csd81/attention-is-all-you-need-numpy/commit/abcf2ba803ffc44fea483e400871db850526d28f
# label: correct
# class: clean
# pattern: the original Transformer written in NumPy with hand-written backward passes: heads split with reshape(B, L, h, dk).transpose(0, 2, 1, 3), scores Q @ K.transpose(0, 1, 3, 2) / sqrt(dk), masks applied as np.where(mask, scores, -1e9), a hand-written softmax (exp of scores minus the row max, divided by the sum over axis=-1); the source mask is (src != pad) cast to float64 with shape (B, 1, 1, S), the target mask np.tril(ones((L, L))) as float64 (1, 1, L, L); the backward pass zeroes the score gradients at masked positions and divides by sqrt(dk) again
# why: correct: both masks are 1.0 on positions that may be attended and np.where treats a nonzero float as True, so the scores are kept there and -1e9 goes to padding and the future; in float64, -1e9 is an ordinary large negative number; K.transpose(0, 1, 3, 2) swaps exactly the last two axes of (B, h, S, dk) keys; the softmax normalises over the last (key) axis; the second sqrt(dk) in backward() is the chain rule through the forward scale, not a second scaling of the scores
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT007
# source: https://github.com/csd81/attention-is-all-you-need-numpy https://github.com/csd81/attention-is-all-you-need-numpy/commit/abcf2ba803ffc44fea483e400871db850526d28f transformer.py
import math

import numpy as np


class Linear:
    def __init__(self, d_in, d_out):
        limit = math.sqrt(6 / (d_in + d_out))
        self.w = np.random.uniform(-limit, limit, (d_in, d_out))
        self.b = np.zeros(d_out)

    def forward(self, x):
        self._x = x
        return x @ self.w + self.b

    def backward(self, dout):
        self.dw = self._x.reshape(-1, self._x.shape[-1]).T @ dout.reshape(-1, dout.shape[-1])
        self.db = dout.reshape(-1, dout.shape[-1]).sum(axis=0)
        return dout @ self.w.T


class MultiHeadAttention:
    def __init__(self, d_model=512, h=8):
        assert d_model % h == 0
        self.d_model, self.h, self.dk = d_model, h, d_model // h
        self.wq, self.wk = Linear(d_model, d_model), Linear(d_model, d_model)
        self.wv, self.wo = Linear(d_model, d_model), Linear(d_model, d_model)

    def forward(self, q_in, k_in, v_in, mask=None):
        B, L, S = q_in.shape[0], q_in.shape[1], k_in.shape[1]
        Q = self.wq.forward(q_in).reshape(B, L, self.h, self.dk).transpose(0, 2, 1, 3)
        K = self.wk.forward(k_in).reshape(B, S, self.h, self.dk).transpose(0, 2, 1, 3)
        V = self.wv.forward(v_in).reshape(B, S, self.h, self.dk).transpose(0, 2, 1, 3)

        scores = Q @ K.transpose(0, 1, 3, 2) / math.sqrt(self.dk)
        if mask is not None:
            scores = np.where(mask, scores, -1e9)
        attn = np.exp(scores - scores.max(axis=-1, keepdims=True))
        attn = attn / attn.sum(axis=-1, keepdims=True)

        out = (attn @ V).transpose(0, 2, 1, 3).reshape(B, L, self.d_model)
        self._cache = (Q, K, V, attn, mask, B, L, S)
        return self.wo.forward(out), attn

    def backward(self, dout):
        Q, K, V, attn, mask, B, L, S = self._cache
        d_out = self.wo.backward(dout).reshape(B, L, self.h, self.dk).transpose(0, 2, 1, 3)
        d_attn = d_out @ V.transpose(0, 1, 3, 2)  # (B, h, L, S)
        dV = attn.transpose(0, 1, 3, 2) @ d_out  # (B, h, S, dk)
        dscores = attn * (d_attn - (attn * d_attn).sum(axis=-1, keepdims=True))
        if mask is not None:
            dscores = np.where(mask, dscores, 0)
        dscores = dscores / math.sqrt(self.dk)
        dQ = dscores @ K
        dK = dscores.transpose(0, 1, 3, 2) @ Q
        dq_in = self.wq.backward(dQ.transpose(0, 2, 1, 3).reshape(B, L, self.d_model))
        dk_in = self.wk.backward(dK.transpose(0, 2, 1, 3).reshape(B, S, self.d_model))
        dv_in = self.wv.backward(dV.transpose(0, 2, 1, 3).reshape(B, S, self.d_model))
        return dq_in, dk_in, dv_in


def make_src_mask(src, pad_idx=0):
    return (src != pad_idx).astype(np.float64)[:, None, None, :]


def make_tgt_mask(tgt):
    L = tgt.shape[1]
    return np.tril(np.ones((L, L), dtype=np.float64))[None, None, :, :]
