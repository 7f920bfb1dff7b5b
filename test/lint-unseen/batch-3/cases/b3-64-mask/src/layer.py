# case: b3-64-mask
# modelled-on: WangZesen/Transformer-Tensorflow https://github.com/WangZesen/Transformer-Tensorflow/commit/31ddfb077854b2d4e64009b050a6da9b9ee9bda6
# label: correct
# class: fixed
# pattern: a TF2 / Keras translation transformer in the style of the TensorFlow tutorial: src/mask.py builds the padding masks from sequence lengths with tf.sequence_mask, the look-ahead mask from band_part, and combines them with tf.maximum; the attention in this module adds mask * -1e9 to the scaled logits before a softmax over the last axis
# why: after commit 31ddfb0 the padding mask is 1 - tf.sequence_mask(...), 1 at the padding, the same convention as the look-ahead mask and the attention (-1e9 where the mask is 1); the combined decoder mask hides the future and the target padding; every row keeps its first (real) key, and -1e9 is representable in float32
# looks-like: ATT002, ATT007
# source: https://github.com/WangZesen/Transformer-Tensorflow https://github.com/WangZesen/Transformer-Tensorflow/commit/31ddfb077854b2d4e64009b050a6da9b9ee9bda6 src/layer.py
import tensorflow as tf


def scaled_dot_product_attention(q, k, v, mask):
    matmul_qk = tf.matmul(q, k, transpose_b=True)
    dk = tf.cast(tf.shape(k)[-1], tf.float32)
    logits = matmul_qk / tf.math.sqrt(dk)
    if mask is not None:
        logits += mask * -1e9
    weights = tf.nn.softmax(logits, axis=-1)
    return tf.matmul(weights, v), weights


class MultiHeadAttention(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads):
        super().__init__()
        assert d_model % num_heads == 0
        self.num_heads, self.d_model, self.depth = num_heads, d_model, d_model // num_heads
        self.wq = tf.keras.layers.Dense(d_model)
        self.wk = tf.keras.layers.Dense(d_model)
        self.wv = tf.keras.layers.Dense(d_model)
        self.dense = tf.keras.layers.Dense(d_model)

    def split_heads(self, x, batch_size):
        x = tf.reshape(x, (batch_size, -1, self.num_heads, self.depth))
        return tf.transpose(x, perm=[0, 2, 1, 3])  # (batch, heads, seq_len, depth)

    def call(self, v, k, q, mask):
        batch_size = tf.shape(q)[0]
        q = self.split_heads(self.wq(q), batch_size)
        k = self.split_heads(self.wk(k), batch_size)
        v = self.split_heads(self.wv(v), batch_size)
        attended, weights = scaled_dot_product_attention(q, k, v, mask)
        attended = tf.reshape(tf.transpose(attended, perm=[0, 2, 1, 3]), (batch_size, -1, self.d_model))
        return self.dense(attended), weights


class DecoderLayer(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads, dff, rate=0.1):
        super().__init__()
        self.mha1 = MultiHeadAttention(d_model, num_heads)
        self.mha2 = MultiHeadAttention(d_model, num_heads)
        self.ffn = tf.keras.Sequential([tf.keras.layers.Dense(dff, activation="relu"), tf.keras.layers.Dense(d_model)])
        self.norms = [tf.keras.layers.LayerNormalization(epsilon=1e-6) for _ in range(3)]
        self.drops = [tf.keras.layers.Dropout(rate) for _ in range(3)]

    def call(self, x, enc_output, training, look_ahead_mask, padding_mask):
        attn1, _ = self.mha1(x, x, x, look_ahead_mask)
        out1 = self.norms[0](x + self.drops[0](attn1, training=training))
        attn2, _ = self.mha2(enc_output, enc_output, out1, padding_mask)
        out2 = self.norms[1](out1 + self.drops[1](attn2, training=training))
        return self.norms[2](out2 + self.drops[2](self.ffn(out2), training=training))
