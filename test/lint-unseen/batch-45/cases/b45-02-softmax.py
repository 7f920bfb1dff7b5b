# case: b45-02-softmax
# modelled-on: NMesaC/pay-better-attention-pytorch-keras https://github.com/NMesaC/pay-better-attention-pytorch-keras/commit/bf1c585ee38eed1ba7e023b197d2aca1ae5a1916
# label: buggy
# class: real-bug
# pattern: a Keras 3 / TensorFlow re-implementation of the "You Need to Pay Better Attention" layer variants (standard scaled dot-product "SDPA", "Optimised" without a value projection, "Efficient" slicing keys and values out of the input per head), one head per layer wrapped by a multi-head layer that concatenates the heads; each variant computes Q @ K^T of shape (batch, queries, keys), divides by sqrt(d_q) and calls tf.nn.softmax(..., axis=1)
# why: buggy: the scores are (batch, queries, keys) and axis=1 normalises every key's column over the queries instead of every query's row over the keys; the module's docstring names the paper, whose SDPA variant is the standard softmax(QK^T / sqrt(d_k)) V with the softmax over the keys (rows summing to one), and the repository's PyTorch twin of the layer makes the same axis-1 choice through nn.Softmax(dim=1), so no variant computes the paper's attention; no commit fixes it
# source: https://github.com/NMesaC/pay-better-attention-pytorch-keras https://github.com/NMesaC/pay-better-attention-pytorch-keras/commit/bf1c585ee38eed1ba7e023b197d2aca1ae5a1916 keras_implementation/keras_attention_shared_wa.py
"""Attention variants after "You Need to Pay Better Attention" (arXiv 2403.01643), Keras version."""
import keras
import tensorflow as tf
from keras import layers


class HeadAttention(keras.layers.Layer):
    def __init__(self, d_model, d_q, d_k, d_v, variant="SDPA", head=0, **kwargs):
        super().__init__(**kwargs)
        self.d_model, self.d_q, self.d_k, self.d_v = d_model, d_q, d_k, d_v
        self.variant = variant
        self.head = head

    def build(self, input_shape):
        self.proj_q = layers.Dense(self.d_q)
        if self.variant in ("SDPA", "Optimised"):
            self.proj_k = layers.Dense(self.d_k)
        if self.variant == "SDPA":
            self.proj_v = layers.Dense(self.d_v)
        super().build(input_shape)

    def _weights(self, q, keys_t):
        logits = (q @ keys_t) / tf.math.sqrt(tf.cast(self.d_q, tf.float32))
        return tf.nn.softmax(logits, axis=1)  # expect: ATT001

    def call(self, inputs):
        x_q, x_k, x_v = inputs
        if self.variant == "SDPA":
            q = self.proj_q(x_q)
            keys_t = tf.transpose(self.proj_k(x_k), perm=[0, 2, 1])
            return self._weights(q, keys_t) @ self.proj_v(x_v)
        if self.variant == "Optimised":
            q = self.proj_q(x_q)
            keys_t = tf.transpose(self.proj_k(x_k), perm=[0, 2, 1])
            start = self.head * self.d_v
            return self._weights(q, keys_t) @ x_v[:, :, start : start + self.d_v]
        # "Efficient": no key or value projection, the head's slice of the input is used directly
        q = self.proj_q(x_q)
        start, stop = self.head * self.d_k, (self.head + 1) * self.d_k
        keys_t = tf.transpose(x_k[:, :, start:stop], perm=[0, 2, 1])
        scores = (q @ keys_t) / tf.math.sqrt(tf.cast(self.d_q, tf.float32))
        probs = tf.nn.softmax(scores, axis=1)  # expect: ATT001
        return probs @ x_v[:, :, start:stop]


class BetterMultiHead(keras.layers.Layer):
    def __init__(self, n_heads, d_model, d_k, d_v, variant="SDPA", **kwargs):
        super().__init__(**kwargs)
        self.n_heads, self.d_model, self.d_k, self.d_v = n_heads, d_model, d_k, d_v
        self.variant = variant

    def build(self, input_shape):
        self.heads = [
            HeadAttention(self.d_model, self.d_k, self.d_k, self.d_v, self.variant, head=i)
            for i in range(self.n_heads)
        ]
        for h in self.heads:
            h.build(input_shape)
        self.proj_out = layers.Dense(self.d_model)
        self.proj_out.build((None, self.n_heads * self.d_v))
        super().build(input_shape)

    def call(self, x):
        outs = [h([x, x, x]) for h in self.heads]
        return self.proj_out(tf.concat(outs, axis=-1))
