# case: b13-05-clean
# modelled-on: AhdyAhmed/Transformer-From-Scratch https://github.com/AhdyAhmed/Transformer-From-Scratch/commit/22618d7b29c8695caf9cc0f2a1d1e55a16438ff7
# label: correct
# class: clean
# pattern: the TensorFlow half of a paired TF / PyTorch transformer: a masking module builds boolean keep masks (tf.not_equal(seq, pad) expanded to (B, 1, 1, S); a lower band_part(ones, -1, 0) look-ahead mask; their logical_and) and defines NEG_INF = -1e9; the attention function imports NEG_INF, divides matmul(q, k, transpose_b=True) by sqrt of the last query axis cast to float, and applies the mask as tf.where(mask, scores, NEG_INF) before tf.nn.softmax(axis=-1); a Keras multi-head layer splits heads with reshape + transpose
# why: correct: tf.where keeps the scores where the keep mask is True and writes -1e9 where it is False, so padding and future keys are blocked; band_part(ones, -1, 0) keeps the lower triangle with the diagonal; -1e9 is finite and far below any float32 score, and the diagonal keeps every decoder row non-empty; transpose_b=True contracts the feature axes; the scale is sqrt of the per-head depth (the query's last axis after the split); what a naive linter could misread: ATT002 (a keep mask as tf.where's condition, built in another module), ATT007 (a fill imported from another module), ATT005 (transpose_b instead of an explicit transpose), ATT004 (sqrt of a dynamic shape), ATT001 (axis=-1 on 4-D scores)
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT007
# source: https://github.com/AhdyAhmed/Transformer-From-Scratch https://github.com/AhdyAhmed/Transformer-From-Scratch/commit/22618d7b29c8695caf9cc0f2a1d1e55a16438ff7 tf_impl/model/attention.py
import tensorflow as tf

from tf_model.masking import NEG_INF


def scaled_dot_product_attention(query, key, value, mask=None, dropout=None, training=None):
    d_k = tf.cast(tf.shape(query)[-1], tf.float32)
    scores = tf.matmul(query, key, transpose_b=True) / tf.math.sqrt(d_k)
    if mask is not None:
        scores = tf.where(mask, scores, tf.cast(NEG_INF, scores.dtype))
    weights = tf.nn.softmax(scores, axis=-1)
    used = dropout(weights, training=training) if dropout is not None else weights
    return tf.matmul(used, value), weights


class MultiHeadAttention(tf.keras.layers.Layer):
    def __init__(self, d_model: int, num_heads: int, rate: float = 0.1):
        super().__init__()
        self.num_heads = num_heads
        self.depth = d_model // num_heads
        self.d_model = d_model
        self.wq = tf.keras.layers.Dense(d_model)
        self.wk = tf.keras.layers.Dense(d_model)
        self.wv = tf.keras.layers.Dense(d_model)
        self.wo = tf.keras.layers.Dense(d_model)
        self.drop = tf.keras.layers.Dropout(rate)

    def _split(self, x, batch):
        x = tf.reshape(x, (batch, -1, self.num_heads, self.depth))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def call(self, q, k, v, mask=None, training=None):
        batch = tf.shape(q)[0]
        q = self._split(self.wq(q), batch)
        k = self._split(self.wk(k), batch)
        v = self._split(self.wv(v), batch)
        out, weights = scaled_dot_product_attention(q, k, v, mask, self.drop, training)
        out = tf.transpose(out, perm=[0, 2, 1, 3])
        out = tf.reshape(out, (batch, -1, self.d_model))
        return self.wo(out), weights
