# case: b12-12-clean
# modelled-on: Terabyte17/Transformer-Tensorflow https://github.com/Terabyte17/Transformer-Tensorflow/commit/a8380ad6ce38bb33390bdf5a82913267654f3c5b
# label: correct
# class: clean
# pattern: a TensorFlow 2 translation transformer following the TF tutorial: a utils module builds masks that are 1.0 where a position must be hidden (padding as equal(seq, 0) cast to float, the look-ahead mask as 1 - band_part(ones, -1, 0)); multi-head attention splits heads with reshape and transpose(perm=[0, 2, 1, 3]), scores with tf.matmul(q, k, transpose_b=True) divided by sqrt of k's last dimension, adds mask * -1e9 and softmaxes over axis -1; the decoder's second block takes the encoder output as values and keys and its own state as queries through a forward(v, k, q, mask) signature
# why: correct: the masks are 1 at padding and at future keys, and adding mask * -1e9 pushes exactly those scores down; transpose_b=True transposes the keys inside matmul; after the head split k's last dimension is the per-head depth; the forward(v, k, q) argument order is matched by its callers; what a naive linter could misread: ATT002 (an additive mask built from a 1 = hidden mask), ATT005 (no explicit transpose of the keys), ATT004 (a scale read off the key shape), ATT007 (-1e9)
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/Terabyte17/Transformer-Tensorflow https://github.com/Terabyte17/Transformer-Tensorflow/commit/a8380ad6ce38bb33390bdf5a82913267654f3c5b transformer.py
import tensorflow as tf
from tensorflow.keras.layers import Dense


class MultiHeadAttention(tf.keras.layers.Layer):
    def __init__(self, d_model, heads):
        super().__init__()
        assert d_model % heads == 0
        self.d_model, self.num_heads = d_model, heads
        self.depth = d_model // heads
        self.wq, self.wk, self.wv = Dense(d_model), Dense(d_model), Dense(d_model)
        self.dense = Dense(d_model)

    def scaled_dot_product_attention(self, q, k, v, mask):
        matmul_qk = tf.matmul(q, k, transpose_b=True)
        dk = tf.cast(tf.shape(k)[-1], tf.float32)
        scaled = matmul_qk / tf.math.sqrt(dk)
        if mask is not None:
            scaled += mask * -1e9
        attention = tf.nn.softmax(scaled, axis=-1)
        return tf.matmul(attention, v), attention

    def split_heads(self, x, batch_size):
        x = tf.reshape(x, (batch_size, -1, self.num_heads, self.depth))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def call(self, v, k, q, mask):
        batch_size = tf.shape(q)[0]
        q = self.split_heads(self.wq(q), batch_size)
        k = self.split_heads(self.wk(k), batch_size)
        v = self.split_heads(self.wv(v), batch_size)
        out, weights = self.scaled_dot_product_attention(q, k, v, mask)
        out = tf.transpose(out, perm=[0, 2, 1, 3])
        out = tf.reshape(out, (batch_size, -1, self.d_model))
        return self.dense(out), weights


class DecoderBlock(tf.keras.layers.Layer):
    def __init__(self, d_model, heads):
        super().__init__()
        self.mha1 = MultiHeadAttention(d_model, heads)
        self.mha2 = MultiHeadAttention(d_model, heads)
        self.norm1 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.norm2 = tf.keras.layers.LayerNormalization(epsilon=1e-6)

    def call(self, x, enc_output, look_ahead_mask, padding_mask):
        a1, _ = self.mha1(x, x, x, look_ahead_mask)
        h = self.norm1(x + a1)
        a2, _ = self.mha2(enc_output, enc_output, h, padding_mask)
        return self.norm2(h + a2)
