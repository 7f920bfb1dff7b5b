# case: t17j-08-clean
# modelled-on: ZiyaoGeng/RecLearn https://github.com/ZiyaoGeng/RecLearn/commit/4bbfb492b872c5a3290a2bce1ed5c160162558a3
# label: correct
# class: clean
# pattern: FISSA's location-based attention as a Keras layer: keys are projected with W, scored against one learned query with tf.matmul(k, q, transpose_b=True) into (None, seq_len, 1) logits, divided by sqrt(dim), padded positions are replaced with -2**32 + 1 by tf.where(tf.equal(mask, 0), paddings, logits) where the (None, seq_len, 1) float keep mask comes from the model module (not_equal(click_seq, 0)), and the softmax runs with axis=-1 on the logits transposed to (None, 1, seq_len) before the weighted sum of the values
# why: correct: the mask is a keep mask (1.0 = clicked item), and the fill goes where it equals 0; the transpose moves the sequence to the last axis, so axis=-1 normalises over the items and not over the length-1 axis; the single query is dim wide, so sqrt(dim) is the scale of this one-head dot product; transpose_b=True turns the (1, dim) query into (dim, 1), which the product needs
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT007
# source: https://github.com/ZiyaoGeng/RecLearn https://github.com/ZiyaoGeng/RecLearn/commit/4bbfb492b872c5a3290a2bce1ed5c160162558a3 reclearn/layers/core.py, reclearn/models/matching/fissa.py
import tensorflow as tf
from tensorflow.keras.layers import Dropout, Layer


class LocationBasedAttention(Layer):
    def __init__(self, dnn_dropout=0.0):
        super().__init__()
        self.dropout = Dropout(dnn_dropout)

    def build(self, input_shape):
        self.dim = input_shape[0][-1]
        self.W = self.add_weight(shape=[self.dim, self.dim], name="att_weights", initializer="random_normal")
        self.W_2 = self.add_weight(shape=[self.dim, self.dim], name="att_weights2", initializer="random_normal")
        self.q = self.add_weight(shape=[1, self.dim], name="query_weight", initializer="random_normal")

    def call(self, inputs):
        k, v, mask = inputs  # (None, seq_len, dim), (None, seq_len, dim), (None, seq_len, 1)
        k = tf.matmul(k, self.W)
        logits = tf.matmul(k, self.q, transpose_b=True)  # (None, seq_len, 1)
        logits = logits / tf.sqrt(tf.cast(self.dim, dtype=tf.float32))
        paddings = tf.ones_like(logits) * (-2 ** 32 + 1)
        logits = tf.where(tf.equal(mask, 0), paddings, logits)
        weights = tf.nn.softmax(logits=tf.transpose(logits, [0, 2, 1]), axis=-1)  # (None, 1, seq_len)
        out = tf.squeeze(tf.matmul(tf.matmul(weights, v), self.W_2), axis=1)  # (None, dim)
        return self.dropout(out)
