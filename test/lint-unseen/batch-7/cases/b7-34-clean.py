# case: b7-34-clean
# modelled-on: aeroabir/SASRec-TF2 https://github.com/aeroabir/SASRec-TF2/commit/aaab85dfb09e69101dbbeea1ed9bba20080da2de
# label: correct
# class: clean
# pattern: the SASRec self-attention block in TensorFlow: heads split on the feature axis and concatenated on the batch axis ((h*N, T, C/h)), scores Q_ K_^T / sqrt(C/h), key masks from the sign of the summed key embeddings (0 at padded items) and a lower-triangular causality mask applied with tf.where(tf.equal(mask, 0), -2**32 + 1, scores), a softmax over the last axis, then the weights multiplied by a query mask (0 at padded query positions) before the weighted sum
# why: correct: both masks are 1 where a key may be attended and tf.where fills where they are 0, the fill fits float32, the softmax runs over the keys, and the multiplication after the softmax zeroes the rows of padded queries (their outputs are discarded), not keys, as the SASRec paper does
# looks-like: ATT001, ATT002, ATT004, ATT006, ATT007
# source: https://github.com/aeroabir/SASRec-TF2 https://github.com/aeroabir/SASRec-TF2/commit/aaab85dfb09e69101dbbeea1ed9bba20080da2de codes_tf1/model.py
import tensorflow as tf


def multihead_attention(queries, keys, attention_dim: int, num_heads: int, dropout_rate: float):
    Q = tf.keras.layers.Dense(attention_dim, activation=None)(queries)  # (N, T_q, C)
    K = tf.keras.layers.Dense(attention_dim, activation=None)(keys)  # (N, T_k, C)
    V = tf.keras.layers.Dense(attention_dim, activation=None)(keys)

    Q_ = tf.concat(tf.split(Q, num_heads, axis=2), axis=0)  # (h*N, T_q, C/h)
    K_ = tf.concat(tf.split(K, num_heads, axis=2), axis=0)
    V_ = tf.concat(tf.split(V, num_heads, axis=2), axis=0)

    outputs = tf.matmul(Q_, tf.transpose(K_, [0, 2, 1]))  # (h*N, T_q, T_k)
    outputs = outputs / (K_.get_shape().as_list()[-1] ** 0.5)

    # key masking: 0 at padded items
    key_masks = tf.sign(tf.abs(tf.reduce_sum(keys, axis=-1)))  # (N, T_k)
    key_masks = tf.tile(key_masks, [num_heads, 1])  # (h*N, T_k)
    key_masks = tf.tile(tf.expand_dims(key_masks, 1), [1, tf.shape(queries)[1], 1])  # (h*N, T_q, T_k)
    paddings = tf.ones_like(outputs) * (-(2**32) + 1)
    outputs = tf.where(tf.equal(key_masks, 0), paddings, outputs)

    # causality
    diag_vals = tf.ones_like(outputs[0, :, :])  # (T_q, T_k)
    tril = tf.linalg.LinearOperatorLowerTriangular(diag_vals).to_dense()
    masks = tf.tile(tf.expand_dims(tril, 0), [tf.shape(outputs)[0], 1, 1])
    paddings = tf.ones_like(masks) * (-(2**32) + 1)
    outputs = tf.where(tf.equal(masks, 0), paddings, outputs)

    outputs = tf.nn.softmax(outputs)  # (h*N, T_q, T_k)

    # query masking: zero the rows of padded queries
    query_masks = tf.sign(tf.abs(tf.reduce_sum(queries, axis=-1)))  # (N, T_q)
    query_masks = tf.tile(query_masks, [num_heads, 1])
    query_masks = tf.tile(tf.expand_dims(query_masks, -1), [1, 1, tf.shape(keys)[1]])  # (h*N, T_q, T_k)
    outputs *= query_masks

    outputs = tf.keras.layers.Dropout(dropout_rate)(outputs)
    outputs = tf.matmul(outputs, V_)  # (h*N, T_q, C/h)
    outputs = tf.concat(tf.split(outputs, num_heads, axis=0), axis=2)  # (N, T_q, C)
    return outputs + queries
