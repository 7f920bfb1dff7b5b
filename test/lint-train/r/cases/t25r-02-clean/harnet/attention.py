# case: t25r-02-clean
# modelled-on: saif-mahmud/hierarchical-attention-HAR https://github.com/saif-mahmud/hierarchical-attention-HAR/commit/be33638bc3bc45904d72930b7da00e0a01c36024
# label: correct
# class: clean
# pattern: a TF2/Keras hierarchical self-attention model for human-activity recognition from wearable sensors: the TensorFlow-tutorial helper (tf.matmul(q, k, transpose_b=True) / sqrt(tf.shape(k)[-1]), mask * -1e9, tf.nn.softmax(axis=-1)) inside a multi-head layer whose call takes (v, k, q, mask) in that order; a pooling layer in another module attends with one learned query of shape (1, 1, d_model) tiled over the batch, then squeezes axis 1 of the output and axis 2 of the (batch, heads, 1, windows) weights; the encoder module builds a look-ahead mask 1 - band_part(ones, -1, 0) and keeps it unused, the blocks being called without a mask
# why: correct: with one query per sequence the scores are (batch, heads, 1, keys) and the softmax over the last axis normalises over the windows being pooled; the scale is sqrt of the per-head depth (the last axis of the split keys), not of d_model; squeezing axis 2 removes the single-query axis, not the key axis; the (v, k, q) argument order is used consistently by both callers; the stored look-ahead mask (1 above the diagonal) would have the right polarity for "mask * -1e9", and an encoder over sensor windows is meant to be bidirectional, so not passing it is no bug
# looks-like: ATT001, ATT002, ATT004, ATT005
# source: https://github.com/saif-mahmud/hierarchical-attention-HAR https://github.com/saif-mahmud/hierarchical-attention-HAR/commit/be33638bc3bc45904d72930b7da00e0a01c36024 model/multiheaded_self_attention.py
import tensorflow as tf


def scaled_dot_product_attention(q, k, v, mask):
    logits = tf.matmul(q, k, transpose_b=True)  # (..., len_q, len_k)
    dk = tf.cast(tf.shape(k)[-1], tf.float32)
    logits = logits / tf.math.sqrt(dk)
    if mask is not None:
        logits += mask * -1e9
    weights = tf.nn.softmax(logits, axis=-1)
    return tf.matmul(weights, v), weights


class MultiHeadAttention(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads):
        super().__init__()
        assert d_model % num_heads == 0
        self.num_heads = num_heads
        self.d_model = d_model
        self.depth = d_model // num_heads
        self.wq = tf.keras.layers.Dense(d_model, use_bias=False)
        self.wk = tf.keras.layers.Dense(d_model)
        self.wv = tf.keras.layers.Dense(d_model)
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
        out = tf.reshape(out, (batch_size, -1, self.d_model))
        return self.dense(out), weights


def feed_forward(d_model, dff):
    return tf.keras.Sequential([tf.keras.layers.Dense(dff, activation="relu"), tf.keras.layers.Dense(d_model)])


class SelfAttentionBlock(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads, dff, rate=0.1):
        super().__init__()
        self.mha = MultiHeadAttention(d_model, num_heads)
        self.ffn = feed_forward(d_model, dff)
        self.norm1 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.norm2 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.drop1 = tf.keras.layers.Dropout(rate)
        self.drop2 = tf.keras.layers.Dropout(rate)

    def call(self, x, training=False, mask=None):
        h, _ = self.mha(x, x, x, mask)
        x = self.norm1(x + self.drop1(h, training=training))
        return self.norm2(x + self.drop2(self.ffn(x), training=training))
