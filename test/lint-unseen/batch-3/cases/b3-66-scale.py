# case: b3-66-scale
# modelled-on: jason9693/MusicTransformer-tensorflow2.0 https://github.com/jason9693/MusicTransformer-tensorflow2.0/commit/e2d14e78160aa22be858f4c67a713c1c8b669701
# label: correct
# class: fixed
# pattern: Music Transformer's relative global attention in TF2 / Keras: per-head q, k, v, a learned relative embedding E multiplied into the queries and "skewed" (pad, reshape, slice) into relative logits Srel, logits = q k^T + Srel, a look-ahead mask added as mask * -1e9, softmax over the last axis
# why: after commit e2d14e7 the logits (content plus relative) are divided by sqrt(dh), the per-head width of q and k, before the look-ahead mask and the softmax, so the weights are a distribution over the keys; the mask (1 at the hidden keys, as the callers build the look-ahead mask) is added as -1e9, which fits float32
# looks-like: ATT002, ATT003, ATT004, ATT005, ATT007
# source: https://github.com/jason9693/MusicTransformer-tensorflow2.0 https://github.com/jason9693/MusicTransformer-tensorflow2.0/commit/e2d14e78160aa22be858f4c67a713c1c8b669701 custom/layers.py
import math

import tensorflow as tf
from tensorflow import keras


class RelativeGlobalAttention(keras.layers.Layer):
    """Relative global attention (Huang et al., 2018, arXiv:1809.04281)."""

    def __init__(self, h=4, d=256, max_seq=2048, **kwargs):
        super().__init__(**kwargs)
        self.h, self.d, self.dh, self.max_seq = h, d, d // h, max_seq
        self.Wq = keras.layers.Dense(d)
        self.Wk = keras.layers.Dense(d)
        self.Wv = keras.layers.Dense(d)
        self.fc = keras.layers.Dense(d)

    def build(self, input_shape):
        self.E = self.add_weight("emb", shape=[self.max_seq, self.dh])

    def _heads(self, x):
        x = tf.reshape(x, (tf.shape(x)[0], tf.shape(x)[1], self.h, self.dh))
        return tf.transpose(x, (0, 2, 1, 3))  # batch, h, seq, dh

    def call(self, inputs, mask=None, **kwargs):
        q, k, v = self._heads(self.Wq(inputs[0])), self._heads(self.Wk(inputs[1])), self._heads(self.Wv(inputs[2]))
        len_q, len_k = q.shape[2], k.shape[2]

        E = self.E[max(0, self.max_seq - len_q):, :]
        QE = tf.einsum("bhld,md->bhlm", q, E)
        Srel = self._skewing(QE, len_q, len_k)

        logits = tf.matmul(q, k, transpose_b=True) + Srel
        logits = logits / math.sqrt(self.dh)
        if mask is not None:
            logits += tf.cast(mask, tf.float32) * -1e9

        attention = tf.nn.softmax(logits, -1)
        out = tf.matmul(attention, v)
        out = tf.reshape(tf.transpose(out, (0, 2, 1, 3)), (tf.shape(out)[0], -1, self.d))
        return self.fc(out)

    @staticmethod
    def _skewing(t, len_q, len_k):
        padded = tf.pad(t, [[0, 0], [0, 0], [0, 0], [1, 0]])
        reshaped = tf.reshape(padded, shape=[-1, padded.shape[1], padded.shape[-1], padded.shape[-2]])
        srel = reshaped[:, :, 1:, :]
        if len_k > len_q:
            srel = tf.pad(srel, [[0, 0], [0, 0], [0, 0], [0, len_k - len_q]])
        elif len_k < len_q:
            srel = srel[:, :, :, :len_k]
        return srel
