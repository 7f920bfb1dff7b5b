# case: t32y-02-clean
# modelled-on: atsushieee/midi-music-generator https://github.com/atsushieee/midi-music-generator/commit/468e611d992aaf2f15ce668c331a98f8d8292c8c
# label: correct
# class: clean
# pattern: a MIDI generator's TensorFlow decoder attention split over two modules: attention.DotAttention (logits = matmul(q, k, transpose_b=True) / sqrt(d_k) with d_k = tf.shape(key)[-1], logits -= 1e9 * mask, softmax over axis=-1) and heads.Heads, which projects with four Dense layers, splits (B, T, d_model) into (B, h, T, d_model / h) and merges the heads back; the mask is documented as 1 on the positions to hide and broadcast as (B, 1, T, T)
# why: correct: subtracting 1e9 where the mask is 1 removes exactly the positions it marks, as its docstring says; d_k is read from the split keys, so it is the per-head width; transpose_b transposes the keys' last two axes; the softmax is over the keys
# looks-like: ATT002, ATT004, ATT005
# source: https://github.com/atsushieee/midi-music-generator https://github.com/atsushieee/midi-music-generator/commit/468e611d992aaf2f15ce668c331a98f8d8292c8c generative_music/domain/model/transformer/layer/sublayer/multi_head_attention/multi_head_attention.py
import tensorflow as tf

from .attention import DotAttention


class Heads(tf.keras.layers.Layer):
    def __init__(self, num_heads: int, d_model: int, dropout_rate: float = 0.1):
        super().__init__()
        assert d_model % num_heads == 0
        self.per_head = d_model // num_heads
        self.num_heads = num_heads
        self.dense = [tf.keras.layers.Dense(d_model) for _ in range(4)]
        self.core = DotAttention(dropout_rate)

    def _split(self, x, batch):
        x = tf.reshape(x, (batch, -1, self.num_heads, self.per_head))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def call(self, query, key, value, mask=None):
        batch = tf.shape(query)[0]
        query, key, value = [d(x) for d, x in zip(self.dense, (query, key, value))]
        query, key, value = [self._split(x, batch) for x in (query, key, value)]
        out, _ = self.core(query, key, value, mask)
        out = tf.transpose(out, perm=[0, 2, 1, 3])
        out = tf.reshape(out, (batch, -1, self.num_heads * self.per_head))
        return self.dense[-1](out)
