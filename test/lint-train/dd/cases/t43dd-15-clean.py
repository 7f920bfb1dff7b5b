# case: t43dd-15-clean
# modelled-on: Awni00/hierarchical-attention-external-memory https://github.com/Awni00/hierarchical-attention-external-memory/commit/422cddb6f7a58e39af7cb298a01018d7e805dd15
# label: correct
# class: clean
# pattern: Keras hierarchical attention over an external memory of several (x, y) sequences: pairwise scores `einsum('bik,btjk->btij', queries, keys)` of shape [batch, mem_size, seq_len, mem_len]; a within-sequence softmax over axis=-1 (mem_len) and retrieval `einsum('btij,btjk->btik')`; then an over-sequences softmax of the row maxima `reduce_max(scores, axis=-1)` over axis=1 (mem_size) and the mixture `einsum('bti,btik->bik')`; the multi-head variant stacks heads LAST (`tf.stack(..., axis=-1)`), so its within-sequence softmax is over axis=-2
# why: correct: each softmax runs over the axis the following einsum sums away (j for the within-sequence weights, t for the over-sequences weights), so every distribution is over the memory items it weighs; in the heads-last variant the mem_len axis is -2 because the head axis is last; both scales default to 1/sqrt(key_dim), the width of q and k
# looks-like: ATT001, ATT003, ATT004
# source: https://github.com/Awni00/hierarchical-attention-external-memory https://github.com/Awni00/hierarchical-attention-external-memory/commit/422cddb6f7a58e39af7cb298a01018d7e805dd15 hierarchical_attention.py
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers


class MemoryAttention(tf.keras.layers.Layer):
    def __init__(self, key_dim, value_dim=None, scale_in=None, scale_over=None, **kwargs):
        super().__init__(**kwargs)
        self.key_dim = key_dim
        self.value_dim = value_dim
        self.scale_in = 1 / np.sqrt(key_dim) if scale_in is None else scale_in
        self.scale_over = 1 / np.sqrt(key_dim) if scale_over is None else scale_over

    def build(self, input_shape):
        _, _, mem_y_shape = input_shape
        self.q = layers.Dense(self.key_dim)
        self.k = layers.Dense(self.key_dim)
        self.v = layers.Dense(self.value_dim or mem_y_shape[-1])

    def call(self, inputs):
        seq, mem_x, mem_y = inputs
        scores = tf.einsum("bik,btjk->btij", self.q(seq), self.k(mem_x))
        within = tf.nn.softmax(self.scale_in * scores, axis=-1)
        per_seq = tf.einsum("btij,btjk->btik", within, self.v(mem_y))
        over = tf.nn.softmax(self.scale_over * tf.reduce_max(scores, axis=-1), axis=1)
        return tf.einsum("bti,btik->bik", over, per_seq)


class MultiHeadMemoryAttention(tf.keras.layers.Layer):
    def __init__(self, key_dim, n_heads=1, **kwargs):
        super().__init__(**kwargs)
        self.key_dim = key_dim
        self.n_heads = n_heads
        self.scale = 1 / np.sqrt(key_dim)

    def build(self, input_shape):
        seq_shape, _, mem_y_shape = input_shape
        self.seq_len = seq_shape[1]
        self.value_dim = mem_y_shape[-1] // self.n_heads
        self.qs = [layers.Dense(self.key_dim) for _ in range(self.n_heads)]
        self.ks = [layers.Dense(self.key_dim) for _ in range(self.n_heads)]
        self.vs = [layers.Dense(self.value_dim) for _ in range(self.n_heads)]
        self.merge = layers.Reshape((self.seq_len, self.value_dim * self.n_heads))

    def call(self, inputs):
        seq, mem_x, mem_y = inputs
        q = tf.stack([f(seq) for f in self.qs], axis=-1)
        k = tf.stack([f(mem_x) for f in self.ks], axis=-1)
        v = tf.stack([f(mem_y) for f in self.vs], axis=-1)
        scores = tf.einsum("bikh,btjkh->btijh", q, k)
        within = tf.nn.softmax(self.scale * scores, axis=-2)
        per_seq = tf.einsum("btijh,btjkh->btikh", within, v)
        over = tf.nn.softmax(self.scale * tf.reduce_max(scores, axis=-2), axis=1)
        mixed = tf.einsum("btih,btikh->bikh", over, per_seq)
        return self.merge(mixed)
