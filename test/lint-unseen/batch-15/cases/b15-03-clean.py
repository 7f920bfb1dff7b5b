# case: b15-03-clean
# modelled-on: JiachengLi1995/TiSASRec https://github.com/JiachengLi1995/TiSASRec/commit/9a34c20e545ac8b526e5c4e9408ceebe284b9ff4
# label: correct
# class: clean
# pattern: a TF1 time-interval-aware sequential recommender: heads are split with tf.split along the features and concatenated on the batch axis, the logits add item, absolute-position and time-interval terms and are divided by the square root of the per-head width read from K_'s static shape; padded keys (all-zero embeddings) are found with sign(reduce_sum(abs(keys))) and their logits replaced by -2**32+1 with tf.where(equal(mask, 0)), a lower-triangular operator hides the future the same way, and after the softmax the rows of padded queries are zeroed by multiplying with a query mask
# why: correct: the key mask is a keep mask (1 = real item) and the fill goes where it equals 0; the causal mask is the lower triangle with the fill where it is 0; the scale is the per-head width C/h (K_ is already split); the multiplication after the softmax zeroes whole rows of padded queries, which the loss ignores, and does not renormalise any row over keys (query masking, not key masking after the softmax); tf.transpose(Kh, [0, 2, 1]) swaps only the keys' sequence and feature axes, as the product needs
# looks-like: ATT002, ATT004, ATT005, ATT006, ATT007
# source: https://github.com/JiachengLi1995/TiSASRec https://github.com/JiachengLi1995/TiSASRec/commit/9a34c20e545ac8b526e5c4e9408ceebe284b9ff4 modules.py
import tensorflow as tf


def interval_attention(queries, keys, interval_k, interval_v, pos_k, pos_v, units, heads=2, drop=0.0,
                       training=True, causal=False, scope="interval_attention", reuse=None):
    """queries, keys: (N, T, C); interval_k/v: (N, T, T, C); pos_k/v: (N, T, C)."""
    with tf.variable_scope(scope, reuse=reuse):
        Q = tf.layers.dense(queries, units, activation=None)  # (N, T_q, C)
        K = tf.layers.dense(keys, units, activation=None)  # (N, T_k, C)
        V = tf.layers.dense(keys, units, activation=None)  # (N, T_k, C)

        # heads stacked on the batch axis: (h*N, T, C/h)
        Qh = tf.concat(tf.split(Q, heads, axis=2), axis=0)
        Kh = tf.concat(tf.split(K, heads, axis=2), axis=0)
        Vh = tf.concat(tf.split(V, heads, axis=2), axis=0)
        ik = tf.concat(tf.split(interval_k, heads, axis=3), axis=0)
        iv = tf.concat(tf.split(interval_v, heads, axis=3), axis=0)
        pk = tf.concat(tf.split(pos_k, heads, axis=2), axis=0)
        pv = tf.concat(tf.split(pos_v, heads, axis=2), axis=0)

        logits = tf.matmul(Qh, tf.transpose(Kh, [0, 2, 1]))  # (h*N, T_q, T_k)
        logits += tf.matmul(Qh, tf.transpose(pk, [0, 2, 1]))
        logits += tf.squeeze(tf.matmul(ik, tf.expand_dims(Qh, axis=3)))
        logits = logits / (Kh.get_shape().as_list()[-1] ** 0.5)

        # keys whose embedding is all zeros are padding
        key_keep = tf.sign(tf.reduce_sum(tf.abs(keys), axis=-1))  # (N, T_k)
        key_keep = tf.tile(key_keep, [heads, 1])  # (h*N, T_k)
        key_keep = tf.tile(tf.expand_dims(key_keep, 1), [1, tf.shape(queries)[1], 1])  # (h*N, T_q, T_k)
        floor = tf.ones_like(logits) * (-2 ** 32 + 1)
        logits = tf.where(tf.equal(key_keep, 0), floor, logits)

        if causal:
            ones = tf.ones_like(logits[0, :, :])  # (T_q, T_k)
            lower = tf.linalg.LinearOperatorLowerTriangular(ones).to_dense()
            lower = tf.tile(tf.expand_dims(lower, 0), [tf.shape(logits)[0], 1, 1])
            floor = tf.ones_like(lower) * (-2 ** 32 + 1)
            logits = tf.where(tf.equal(lower, 0), floor, logits)

        weights = tf.nn.softmax(logits)

        # rows of padded queries are zeroed (their outputs are not used)
        query_keep = tf.sign(tf.reduce_sum(tf.abs(queries), axis=-1))  # (N, T_q)
        query_keep = tf.tile(query_keep, [heads, 1])
        query_keep = tf.tile(tf.expand_dims(query_keep, -1), [1, 1, tf.shape(keys)[1]])  # (h*N, T_q, T_k)
        weights *= query_keep

        weights = tf.layers.dropout(weights, rate=drop, training=tf.convert_to_tensor(training))

        out = tf.matmul(weights, Vh) + tf.matmul(weights, pv)
        out += tf.reshape(tf.matmul(tf.expand_dims(weights, axis=2), iv), tf.shape(tf.matmul(weights, Vh)))
        out = tf.concat(tf.split(out, heads, axis=0), axis=2)  # (N, T_q, C)
        return out + queries
