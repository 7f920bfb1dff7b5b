# case: t25r-01-clean
# modelled-on: xingchensong/Speech-Transformer-tf2.0 https://github.com/xingchensong/Speech-Transformer-tf2.0/commit/14c9f40ee0b02204d12637e85edfc69dab839ff9
# label: correct
# class: clean
# pattern: a TF2/Keras speech transformer's two-dimensional attention over a spectrogram feature map (B, T, D, n): conv projections give q, k, v, which are permuted twice with tf.transpose(perm) lists, once to (B, c, T, D) to attend over time and once to (B, c, D, T) to attend over frequency; both go through one shared helper scaled_dot_product_attention(q, k, v, mask) that computes tf.matmul(q, k, transpose_b=True), divides by sqrt(tf.shape(k)[-1]), adds mask * -1e9 and takes tf.nn.softmax(axis=-1); the outputs are permuted back with the inverse perms and concatenated
# why: correct: in each branch the attended axis is the second-to-last one and the "depth" is the last, so transpose_b=True contracts the depth and the softmax runs over the key axis; the scale is the square root of whatever the last axis is (D for the time branch, T for the frequency branch), which is the per-branch depth the paper scales by; [0, 2, 3, 1] undoes [0, 3, 1, 2] and [0, 3, 2, 1] is its own inverse; the 2D layer passes no mask, and the helper's mask (1 = padding) is added times -1e9 as the TF tutorial does
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/xingchensong/Speech-Transformer-tf2.0 https://github.com/xingchensong/Speech-Transformer-tf2.0/commit/14c9f40ee0b02204d12637e85edfc69dab839ff9 models/modules/attention.py
import numpy as np
import tensorflow as tf


def scaled_dot_product_attention(q, k, v, mask):
    """q, k, v: (..., len, depth); mask broadcastable to (..., len_q, len_k), 1 where padded."""
    logits = tf.matmul(q, k, transpose_b=True)
    depth = tf.cast(tf.shape(k)[-1], tf.float32)
    logits = logits / tf.cast(tf.math.sqrt(depth), logits.dtype)
    if mask is not None:
        logits += tf.cast(mask * -1e9, logits.dtype)
    weights = tf.nn.softmax(logits, axis=-1)
    return tf.matmul(weights, v), weights


class TimeFreqAttention(tf.keras.layers.Layer):
    """Attention along time and along frequency of a (B, T, D, n) feature map."""

    def __init__(self, n=64, c=64):
        super().__init__()
        self.proj_q = tf.keras.layers.Conv2D(c, 3, 1, "same", kernel_initializer="glorot_normal")
        self.proj_k = tf.keras.layers.Conv2D(c, 3, 1, "same", kernel_initializer="glorot_normal")
        self.proj_v = tf.keras.layers.Conv2D(c, 3, 1, "same", kernel_initializer="glorot_normal")
        self.bn_q = tf.keras.layers.BatchNormalization()
        self.bn_k = tf.keras.layers.BatchNormalization()
        self.bn_v = tf.keras.layers.BatchNormalization()
        self.merge = tf.keras.layers.Conv2D(n, 3, 1, "same", kernel_initializer="glorot_normal")
        self.norm = tf.keras.layers.LayerNormalization()
        self.ff1 = tf.keras.layers.Conv2D(n, 3, 1, "same", activation="relu")
        self.ff2 = tf.keras.layers.Conv2D(n, 3, 1, "same")
        self.bn_f1 = tf.keras.layers.BatchNormalization()
        self.bn_f2 = tf.keras.layers.BatchNormalization()

    def call(self, inputs, training=False):
        q = self.bn_q(self.proj_q(inputs), training=training)
        k = self.bn_k(self.proj_k(inputs), training=training)
        v = self.bn_v(self.proj_v(inputs), training=training)

        # (B, T, D, c) -> (B, c, T, D): attend over time, depth D
        q_t, k_t, v_t = (tf.transpose(x, [0, 3, 1, 2]) for x in (q, k, v))
        # (B, T, D, c) -> (B, c, D, T): attend over frequency, depth T
        q_f, k_f, v_f = (tf.transpose(x, [0, 3, 2, 1]) for x in (q, k, v))

        out_t, _ = scaled_dot_product_attention(q_t, k_t, v_t, None)
        out_f, _ = scaled_dot_product_attention(q_f, k_f, v_f, None)

        out_t = tf.transpose(out_t, [0, 2, 3, 1])
        out_f = tf.transpose(out_f, [0, 3, 2, 1])
        out = tf.concat([out_t, out_f], axis=-1)
        out = self.norm(self.merge(out) + inputs)

        ff = self.bn_f1(self.ff1(out), training=training)
        ff = self.bn_f2(self.ff2(ff), training=training)
        return tf.nn.relu(ff + out)


class MultiHeadAttention(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads):
        super().__init__()
        assert d_model % num_heads == 0
        self.num_heads = num_heads
        self.depth = d_model // num_heads
        init = tf.keras.initializers.RandomNormal(0.0, np.sqrt(2.0 / (d_model + self.depth)))
        self.wq = tf.keras.layers.Dense(d_model, kernel_initializer=init)
        self.wk = tf.keras.layers.Dense(d_model, kernel_initializer=init)
        self.wv = tf.keras.layers.Dense(d_model, kernel_initializer=init)
        self.dense = tf.keras.layers.Dense(d_model)

    def split_heads(self, x, batch_size):
        x = tf.reshape(x, (batch_size, -1, self.num_heads, self.depth))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def call(self, v, k, q, mask):
        batch_size = tf.shape(q)[0]
        q = self.split_heads(self.wq(q), batch_size)
        k = self.split_heads(self.wk(k), batch_size)
        v = self.split_heads(self.wv(v), batch_size)
        out, weights = scaled_dot_product_attention(q, k, v, mask)
        out = tf.transpose(out, perm=[0, 2, 1, 3])
        out = tf.reshape(out, (batch_size, -1, self.num_heads * self.depth))
        return self.dense(out), weights
