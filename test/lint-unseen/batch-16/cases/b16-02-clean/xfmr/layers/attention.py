# case: b16-02-clean
# modelled-on: tensorops/TransformerX https://github.com/tensorops/TransformerX/commit/2fea0ac8f8ceab6a08c0071a9ac88dd92f42785c
# label: correct
# class: clean
# pattern: a Keras transformer library whose mask layers (another module) build a 0/1 mask in which 1 marks a position to hide (the look-ahead mask is 1 - lower-triangular ones), multiply it by mask_value = -1e9 and add it to the scores; the dot-product attention layer applies the look-ahead mask layer to the scores when causal_mask=True and softmaxes over the last axis; the multi-head layer splits heads into a 4-D (batch, heads, len, head_dim) layout before the call, so queries.shape[-1] is the per-head width used in the scale
# why: correct: the mask is 1 on the future and 0 on the past, and 1 * -1e9 is added only to the future scores (the library's own convention, documented in the base mask); the scale is sqrt of the last axis of the 4-D queries, i.e. the head width; float32 throughout, so -1e9 is representable
# looks-like: ATT002, ATT004, ATT006, ATT007
# source: https://github.com/tensorops/TransformerX https://github.com/tensorops/TransformerX/commit/2fea0ac8f8ceab6a08c0071a9ac88dd92f42785c transformerx/layers/dot_product_attention.py
import tensorflow as tf

from .masks import LookAheadMask


class DotProductAttention(tf.keras.layers.Layer):
    def __init__(self, dropout_rate=0.0, scaled=True, causal_mask=False, **kwargs):
        super().__init__(**kwargs)
        self.dropout = tf.keras.layers.Dropout(dropout_rate)
        self.scaled = scaled
        self.causal_mask = causal_mask

    def call(self, queries, keys, values, training=None):
        scores = tf.matmul(queries, keys, transpose_b=True)
        if self.scaled:
            depth = queries.shape[-1]
            scores = scores / tf.math.sqrt(tf.cast(depth, dtype=queries.dtype))
        if self.causal_mask:
            scores = LookAheadMask()(scores)
        self.attention_weights = tf.nn.softmax(scores, axis=-1)
        out = tf.matmul(self.dropout(self.attention_weights, training=training), values)
        return out, self.attention_weights


class MultiHeadAttention(tf.keras.layers.Layer):
    def __init__(self, d_model=512, num_heads=8, dropout_rate=0.0, causal_mask=False, **kwargs):
        super().__init__(**kwargs)
        self.d_model = d_model
        self.num_heads = num_heads
        self.attention = DotProductAttention(dropout_rate, scaled=True, causal_mask=causal_mask)
        self.W_q = tf.keras.layers.Dense(d_model, use_bias=False)
        self.W_k = tf.keras.layers.Dense(d_model, use_bias=False)
        self.W_v = tf.keras.layers.Dense(d_model, use_bias=False)
        self.W_o = tf.keras.layers.Dense(d_model, use_bias=False)

    def split_heads(self, x):
        b, n = tf.shape(x)[0], tf.shape(x)[1]
        x = tf.reshape(x, (b, n, self.num_heads, self.d_model // self.num_heads))
        return tf.transpose(x, perm=(0, 2, 1, 3))

    def merge_heads(self, x):
        b, n = tf.shape(x)[0], tf.shape(x)[2]
        x = tf.transpose(x, perm=(0, 2, 1, 3))
        return tf.reshape(x, (b, n, self.d_model))

    def call(self, queries, keys, values, training=None):
        q = self.split_heads(self.W_q(queries))
        k = self.split_heads(self.W_k(keys))
        v = self.split_heads(self.W_v(values))
        out, weights = self.attention(q, k, v, training=training)
        return self.W_o(self.merge_heads(out)), weights
