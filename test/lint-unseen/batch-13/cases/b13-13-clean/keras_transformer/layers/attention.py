# case: b13-13-clean
# modelled-on: nilpath/keras-transformer https://github.com/nilpath/keras-transformer/commit/79abb7e647b562e608ce3939ded1da7b45e26e6a
# label: correct
# class: clean
# pattern: a Keras/TF2 encoder-decoder in the TensorFlow-tutorial convention: the masking module returns float masks that are 1.0 where attention is NOT allowed (tf.equal(seq, pad) cast to float, and 1 - band_part(ones, -1, 0) for the look-ahead), the model's train_step combines the decoder's two masks with tf.maximum, and scaled_dot_product_attention adds mask * -1e9 to matmul(q, k, transpose_b=True) / sqrt(d_k) before tf.nn.softmax(axis=-1)
# why: correct: in this convention 1 marks a position to hide, so mask * -1e9 subtracts 1e9 exactly from padding and future keys and adds 0 elsewhere; tf.maximum of two 0/1 hide-masks is their union; 1 - band_part(ones, -1, 0) is 1 strictly above the diagonal, so the diagonal stays visible; d_k is the query's last axis after the head split (the per-head width); what a naive linter could misread: ATT002 (1 - band_part and equal(seq, pad) added as mask * -1e9, masks built in another module and combined with tf.maximum), ATT007 (-1e9 as an additive factor), ATT005 (transpose_b=True), ATT004 (sqrt of a dynamic shape)
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/nilpath/keras-transformer https://github.com/nilpath/keras-transformer/commit/79abb7e647b562e608ce3939ded1da7b45e26e6a src/keras_transformer/layers/attention.py
import tensorflow as tf


def scaled_dot_product_attention(query, key, value, mask=None, dropout=None):
    dim_k = tf.cast(tf.shape(query)[-1], tf.float32)
    scores = tf.matmul(query, key, transpose_b=True) / tf.sqrt(dim_k)
    if mask is not None:
        scores += mask * -1e9
    p_attn = tf.nn.softmax(scores, axis=-1)
    if dropout is not None:
        p_attn = dropout(p_attn)
    return tf.matmul(p_attn, value), p_attn


class MultiHeadAttention(tf.keras.layers.Layer):
    def __init__(self, d_model: int, num_heads: int, dropout: float = 0.1, **kwargs):
        super().__init__(**kwargs)
        assert d_model % num_heads == 0
        self._num_heads, self._d_model, self._d_kv = num_heads, d_model, d_model // num_heads
        self._wq = tf.keras.layers.Dense(d_model)
        self._wk = tf.keras.layers.Dense(d_model)
        self._wv = tf.keras.layers.Dense(d_model)
        self._wout = tf.keras.layers.Dense(d_model)
        self._dropout = tf.keras.layers.Dropout(dropout)

    def _split(self, x, batch_size):
        x = tf.reshape(x, (batch_size, -1, self._num_heads, self._d_kv))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def call(self, query, key, value, mask=None):
        batch_size = tf.shape(query)[0]
        query, key, value = [self._split(layer(x), batch_size) for layer, x in zip((self._wq, self._wk, self._wv), (query, key, value))]
        x, self._attn = scaled_dot_product_attention(query, key, value, mask, dropout=self._dropout)
        x = tf.reshape(tf.transpose(x, perm=[0, 2, 1, 3]), (batch_size, -1, self._d_model))
        return self._wout(x)
