# case: b43-10-clean
# modelled-on: wangbingnan136/Anomaly-Transformer-tf.keras https://github.com/wangbingnan136/Anomaly-Transformer-tf.keras/commit/e3d3eed6c61fc01f351de4637a6f948ff880ee5c
# label: correct
# class: clean
# pattern: Anomaly Transformer's anomaly attention in tf.keras (a folder: the attention layers and the encoder that builds them): queries, keys and values are projected and reshaped to (B, L, H, E); the series association is softmax(scale * einsum('blhe,bshe->bhls', q, k)) over the last axis, with the scale applied to the scores after the einsum (1/sqrt(E) by default); a learned per-position sigma (sigmoid, then 3 ** sigma - 1) gives the prior association, a Gaussian kernel of the |i - j| distance matrix; the output is einsum('bhls,bshd->blhd', series, values); the encoder builds the layers unmasked (reconstruction over a window, not autoregressive)
# why: correct: E is the per-head width of the (B, L, H, E) queries, so 1 / sqrt(E) is 1/sqrt(d_k), applied before the softmax; the softmax runs over s, the key axis of (b, h, l, s); the prior is a separate Gaussian association compared with the series in the loss, not a mask; the window is reconstructed as a whole, so no causal mask is intended
# looks-like: ATT001, ATT003, ATT004, ATT008
# source: https://github.com/wangbingnan136/Anomaly-Transformer-tf.keras https://github.com/wangbingnan136/Anomaly-Transformer-tf.keras/commit/e3d3eed6c61fc01f351de4637a6f948ff880ee5c model/attn_tf.py
from math import sqrt

import numpy as np
import tensorflow as tf


class WindowAnomalyAttention(tf.keras.layers.Layer):
    def __init__(self, win_size, scale=None, attention_dropout=0.0, output_attention=False):
        super().__init__()
        self.scale = scale
        self.output_attention = output_attention
        self.dropout = tf.keras.layers.Dropout(rate=attention_dropout)
        idx = np.arange(win_size, dtype=np.float32)
        self.distances = tf.constant(np.abs(idx[:, None] - idx[None, :]))

    def call(self, queries, keys, values, sigma):
        _, _, _, E = queries.shape
        scale = self.scale or 1.0 / sqrt(E)
        scores = tf.einsum("blhe,bshe->bhls", queries, keys)
        logits = scale * scores

        window = logits.shape[-1]
        sigma = tf.transpose(sigma, perm=[0, 2, 1])
        sigma = tf.sigmoid(sigma * 5) + 1e-5
        sigma = tf.pow(3.0, sigma) - 1
        sigma = tf.tile(sigma[:, :, :, tf.newaxis], [1, 1, 1, window])
        dist = self.distances[tf.newaxis, tf.newaxis, ...]
        prior = 1.0 / (sqrt(2 * np.pi) * sigma) * tf.exp(-(dist ** 2) / 2 / (sigma ** 2))

        series = self.dropout(tf.nn.softmax(logits, axis=-1))
        out = tf.einsum("bhls,bshd->blhd", series, values)
        if self.output_attention:
            return out, series, prior, sigma
        return out, None, None, None


class ProjectedAttention(tf.keras.layers.Layer):
    def __init__(self, inner, d_model, n_heads):
        super().__init__()
        d_head = d_model // n_heads
        self.inner = inner
        self.n_heads = n_heads
        self.q_proj = tf.keras.layers.Dense(d_head * n_heads)
        self.k_proj = tf.keras.layers.Dense(d_head * n_heads)
        self.v_proj = tf.keras.layers.Dense(d_head * n_heads)
        self.sigma_proj = tf.keras.layers.Dense(n_heads)
        self.norm = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.o_proj = tf.keras.layers.Dense(d_model)

    def call(self, x):
        B, L, _ = x.shape
        H = self.n_heads
        q = tf.reshape(self.q_proj(x), [B, L, H, -1])
        k = tf.reshape(self.k_proj(x), [B, L, H, -1])
        v = tf.reshape(self.v_proj(x), [B, L, H, -1])
        sigma = tf.reshape(self.sigma_proj(x), [B, L, H])
        out, series, prior, sigma = self.inner(q, k, v, sigma)
        return self.o_proj(self.norm(tf.reshape(out, [B, L, -1]))), series, prior, sigma
