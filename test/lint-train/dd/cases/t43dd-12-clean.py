# case: t43dd-12-clean
# modelled-on: toshiouchi/deep-learning-from-scratch2-Bahdanau-Attention https://github.com/toshiouchi/deep-learning-from-scratch2-Bahdanau-Attention/commit/d1e139aa0d7eb5b3aa6d6040eea03c78fc2d5134
# label: correct
# class: clean
# pattern: dot-product attention of a seq2seq decoder in NumPy layers with hand-written backward passes (the "deep learning from scratch 2" style): AttentionWeight forms scores `s = sum(hs * h[:, None, :], axis=2)` of shape (N, T) and a Softmax layer normalises a 2-D input over axis=1; WeightSum forms the context `sum(hs * a[:, :, None], axis=1)`; TimeAttention loops over the decoder steps; the backward passes repeat and sum along the same axes
# why: correct: for (N, T) scores axis=1 is the encoder-time axis, the keys, and the context sums over that same axis; the sums in the backward passes (`sum(dar, axis=2)`, `sum(dhr, axis=1)`) are gradients of the broadcasts, not normalisations; the unscaled dot product is the Luong-style score this model uses, not scaled dot-product attention
# looks-like: ATT001, ATT003, ATT006
# source: https://github.com/toshiouchi/deep-learning-from-scratch2-Bahdanau-Attention https://github.com/toshiouchi/deep-learning-from-scratch2-Bahdanau-Attention/commit/d1e139aa0d7eb5b3aa6d6040eea03c78fc2d5134 ch09/attention_layer.py
import numpy as np


class RowSoftmax:
    def __init__(self):
        self.out = None

    def forward(self, x):
        x = x - x.max(axis=1, keepdims=True)
        e = np.exp(x)
        self.out = e / e.sum(axis=1, keepdims=True)
        return self.out

    def backward(self, dout):
        dx = self.out * dout
        return dx - self.out * dx.sum(axis=1, keepdims=True)


class WeightedSum:
    def forward(self, hs, a):
        N, T, H = hs.shape
        ar = a.reshape(N, T, 1)
        self.cache = (hs, ar)
        return np.sum(hs * ar, axis=1)

    def backward(self, dc):
        hs, ar = self.cache
        N, T, H = hs.shape
        dt = dc.reshape(N, 1, H).repeat(T, axis=1)
        return dt * ar, np.sum(dt * hs, axis=2)


class DotWeights:
    def __init__(self):
        self.softmax = RowSoftmax()

    def forward(self, hs, h):
        N, T, H = hs.shape
        hr = h.reshape(N, 1, H)
        self.cache = (hs, hr)
        return self.softmax.forward(np.sum(hs * hr, axis=2))

    def backward(self, da):
        hs, hr = self.cache
        N, T, H = hs.shape
        dt = self.softmax.backward(da).reshape(N, T, 1).repeat(H, axis=2)
        return dt * hr, np.sum(dt * hs, axis=1)


class StepAttention:
    def __init__(self):
        self.weights = DotWeights()
        self.pool = WeightedSum()

    def forward(self, hs, h):
        self.a = self.weights.forward(hs, h)
        return self.pool.forward(hs, self.a)

    def backward(self, dout):
        dhs0, da = self.pool.backward(dout)
        dhs1, dh = self.weights.backward(da)
        return dhs0 + dhs1, dh


class SeqAttention:
    def forward(self, hs_enc, hs_dec):
        N, T, H = hs_dec.shape
        out = np.empty_like(hs_dec)
        self.steps = []
        for t in range(T):
            step = StepAttention()
            out[:, t, :] = step.forward(hs_enc, hs_dec[:, t, :])
            self.steps.append(step)
        return out

    def backward(self, dout):
        dhs_enc = 0
        dhs_dec = np.empty_like(dout)
        for t, step in enumerate(self.steps):
            dhs, dh = step.backward(dout[:, t, :])
            dhs_enc = dhs_enc + dhs
            dhs_dec[:, t, :] = dh
        return dhs_enc, dhs_dec
