# case: b35-09-clean
# modelled-on: shenweichen/DeepCTR https://github.com/shenweichen/DeepCTR/commit/1b5fe40e158d1ee6af8b1d9df217a5ed5aea9136
# label: correct
# class: clean
# pattern: the simplified Transformer layer of a click-through-rate library (used by its behaviour-sequence models, e.g. BST and DSIN), a tf.keras Layer: queries and keys are projected with tensordot, the heads are split with tf.split on the feature axis and stacked on the batch axis (h*N), scores Q K^T (matmul transpose_b) divided by sqrt(K_.shape[-1]); the key mask (from tf.sequence_mask of the history lengths, or Keras masks) is tiled per head and over the queries and applied with tf.where(equal(key_masks, 1), outputs, (-2 ** 32 + 1)); "blinding" sets the diagonal to the same large negative value; the row max is subtracted, softmax runs over the last axis, and the weights are then multiplied by the query mask; a cosine-similarity variant multiplies the scores by 20
# why: correct: tf.split + concat on axis 0 lays the heads out head-major, and tf.tile(mask, [head_num, 1]) repeats the masks in the same order; K_'s last axis is the per-head width, so the scale is 1/sqrt(d_head); tf.where keeps the scores where the key mask is 1 (real history items) and puts -2**32 + 1 elsewhere, finite in float32; blinding (an item not attending to itself) is the documented option of the layer; softmax's last axis is the key axis; multiplying the weights by the query mask after the softmax zeroes the rows of padded queries, whose outputs are then pooled away, and does not touch the key normalisation; the cosine variant's factor 20 is a temperature on unit-norm scores, not a scale of raw dot products
# looks-like: ATT001, ATT002, ATT003, ATT004, ATT006, ATT007
# source: https://github.com/shenweichen/DeepCTR https://github.com/shenweichen/DeepCTR/commit/1b5fe40e158d1ee6af8b1d9df217a5ed5aea9136 deepctr/layers/sequence.py
import tensorflow as tf
from tensorflow.python.keras.initializers import TruncatedNormal, glorot_uniform
from tensorflow.python.keras.layers import Dropout, Layer, LayerNormalization

NEG = -2 ** 32 + 1


class BehaviourTransformer(Layer):
    def __init__(self, att_embedding_size=8, head_num=4, dropout_rate=0.0, use_res=True, blinding=True,
                 seq_len_max=50, attention_type="scaled_dot_product", seed=1024, **kwargs):
        super().__init__(**kwargs)
        self.att_embedding_size, self.head_num = att_embedding_size, head_num
        self.num_units = att_embedding_size * head_num
        self.use_res, self.blinding, self.seq_len_max = use_res, blinding, seq_len_max
        self.attention_type, self.seed = attention_type, seed
        self.dropout = Dropout(dropout_rate, seed=seed)
        self.ln = LayerNormalization()

    def build(self, input_shape):
        width = int(input_shape[0][-1])
        shape = [width, self.num_units]
        self.W_query = self.add_weight(name="query", shape=shape, initializer=TruncatedNormal(seed=self.seed))
        self.W_key = self.add_weight(name="key", shape=shape, initializer=TruncatedNormal(seed=self.seed + 1))
        self.W_value = self.add_weight(name="value", shape=shape, initializer=glorot_uniform(seed=self.seed + 2))
        super().build(input_shape)

    def call(self, inputs, training=None):
        queries, keys, query_len, key_len = inputs
        query_masks = tf.squeeze(tf.sequence_mask(query_len, self.seq_len_max, dtype=tf.float32), axis=1)
        key_masks = tf.squeeze(tf.sequence_mask(key_len, self.seq_len_max, dtype=tf.float32), axis=1)

        Q = tf.tensordot(queries, self.W_query, axes=(-1, 0))  # N, T_q, D*h
        K = tf.tensordot(keys, self.W_key, axes=(-1, 0))
        V = tf.tensordot(keys, self.W_value, axes=(-1, 0))
        Q_ = tf.concat(tf.split(Q, self.head_num, axis=2), axis=0)  # h*N, T_q, D
        K_ = tf.concat(tf.split(K, self.head_num, axis=2), axis=0)
        V_ = tf.concat(tf.split(V, self.head_num, axis=2), axis=0)

        if self.attention_type == "cos":
            scores = tf.matmul(tf.nn.l2_normalize(Q_, axis=-1), tf.nn.l2_normalize(K_, axis=-1), transpose_b=True)
            scores = scores * 20
        else:
            scores = tf.matmul(Q_, K_, transpose_b=True)
            scores = scores / (K_.get_shape().as_list()[-1] ** 0.5)

        key_masks = tf.tile(key_masks, [self.head_num, 1])
        key_masks = tf.tile(tf.expand_dims(key_masks, 1), [1, tf.shape(queries)[1], 1])  # h*N, T_q, T_k
        paddings = tf.ones_like(scores) * NEG
        scores = tf.where(tf.equal(key_masks, 1), scores, paddings)
        if self.blinding:
            scores = tf.linalg.set_diag(scores, tf.ones_like(scores)[:, :, 0] * NEG)

        scores -= tf.reduce_max(scores, axis=-1, keepdims=True)
        weights = tf.nn.softmax(scores, axis=-1)
        query_masks = tf.tile(query_masks, [self.head_num, 1])
        weights *= tf.tile(tf.expand_dims(query_masks, -1), [1, 1, tf.shape(keys)[1]])
        weights = self.dropout(weights, training=training)

        result = tf.matmul(weights, V_)
        result = tf.concat(tf.split(result, self.head_num, axis=0), axis=2)  # N, T_q, D*h
        if self.use_res:
            result += queries
        return tf.reduce_mean(self.ln(result), axis=1, keepdims=True)
