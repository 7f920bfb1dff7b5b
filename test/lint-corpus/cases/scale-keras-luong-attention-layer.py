# case: scale-keras-luong-attention-layer
# modelled-on: keras-team/keras https://github.com/keras-team/keras/blob/master/keras/src/layers/attention/attention.py
# label: correct
# pattern: a Luong-style (multiplicative) attention layer like keras.layers.Attention: scores = matmul(query, key, transpose_b=True) with an optional learned scalar (use_scale), no 1/sqrt(d); the value mask is True for real steps and is turned into a large negative bias
# why: Luong attention has no fixed 1/sqrt(d) by definition; the mask polarity (True = keep) is inverted with logical_not before it becomes -1e9 in float32
# looks-like: ATT003, ATT002, ATT005, ATT007
import tensorflow as tf
from tensorflow import keras


class LuongAttention(keras.layers.Layer):
    def __init__(self, use_scale: bool = False, **kwargs):
        super().__init__(**kwargs)
        self.use_scale = use_scale

    def build(self, input_shape):
        self.scale = self.add_weight(name="scale", shape=(), initializer="ones", trainable=True) if self.use_scale else None
        super().build(input_shape)

    def _calculate_scores(self, query, key):
        scores = tf.matmul(query, key, transpose_b=True)  # (B, Tq, Tv)
        if self.scale is not None:
            scores *= self.scale
        return scores

    def call(self, query, value, key=None, value_mask=None):
        key = value if key is None else key
        scores = self._calculate_scores(query, key)
        if value_mask is not None:
            padding_mask = tf.logical_not(tf.expand_dims(value_mask, axis=-2))  # (B, 1, Tv), True = padding
            scores -= 1.0e9 * tf.cast(padding_mask, dtype=scores.dtype)
        weights = tf.nn.softmax(scores)
        return tf.matmul(weights, value), weights
