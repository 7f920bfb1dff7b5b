# case: t10d-01-scale
# modelled-on: jpsagarm95/transformers_from_scratch https://github.com/jpsagarm95/transformers_from_scratch/commit/a8ec95e1b381f865e9b150d45a64836df3bfab03
# label: buggy
# class: real-bug
# pattern: a Keras transformer written from a book's tutorial: the multi-head layer projects queries and keys with Dense(d_k) (d_k = 64 from a settings module), splits the last axis into 8 heads with reshape(..., heads, -1) and a transpose, and hands the per-head tensors and its own d_k to a dot-product attention layer in another module, which divides the scores by sqrt(d_k); padding and look-ahead masks are 1 = hidden and added as -1e9 * mask
# why: buggy: the paper the book follows scales by the square root of each head's key width; here the 64 projected features are split across 8 heads, so every head's keys are 8 wide and the scores are divided by sqrt(64) = 8 instead of sqrt(8) (the multi-head layer passes the total projection width, not the per-head one); no fix was found, the label rests on the paper's definition and the layer's own reshape; the masks are right (1 = hidden, added with a negative sign)
# source: https://github.com/jpsagarm95/transformers_from_scratch https://github.com/jpsagarm95/transformers_from_scratch/commit/a8ec95e1b381f865e9b150d45a64836df3bfab03 multi_head_attention.py
from tensorflow import cast, float32, linalg, math, maximum, newaxis, ones, reshape, shape, transpose
from tensorflow.keras.layers import Dense, Layer

import settings
from dot_attention import ScaledDotAttention


class MultiHead(Layer):
    def __init__(self, heads, d_k, d_v, d_model, **kwargs):
        super().__init__(**kwargs)
        self.attend = ScaledDotAttention()
        self.heads = heads
        self.d_k = d_k
        self.wq = Dense(d_k)
        self.wk = Dense(d_k)
        self.wv = Dense(d_v)
        self.wo = Dense(d_model)

    def split(self, x):
        x = reshape(x, shape=(shape(x)[0], shape(x)[1], self.heads, -1))
        return transpose(x, perm=(0, 2, 1, 3))  # (batch, heads, seq, d_k // heads)

    def merge(self, x):
        x = transpose(x, perm=(0, 2, 1, 3))
        return reshape(x, shape=(shape(x)[0], shape(x)[1], -1))

    def call(self, queries, keys, values, mask=None):
        q = self.split(self.wq(queries))
        k = self.split(self.wk(keys))
        v = self.split(self.wv(values))
        out = self.attend(q, k, v, self.d_k, mask)
        return self.wo(self.merge(out))


def padding_mask(tokens):
    pad = cast(math.equal(tokens, 0), float32)  # 1.0 on padding
    return pad[:, newaxis, newaxis, :]


def lookahead_mask(length):
    return 1 - linalg.band_part(ones((length, length)), -1, 0)  # 1.0 above the diagonal


def decoder_self_mask(tokens):
    return maximum(padding_mask(tokens), lookahead_mask(tokens.shape[1]))


def build():
    return MultiHead(settings.heads, settings.d_k, settings.d_v, settings.d_model)
