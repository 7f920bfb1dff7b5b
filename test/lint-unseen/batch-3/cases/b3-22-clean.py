# case: b3-22-clean
# modelled-on: kang205/SASRec https://github.com/kang205/SASRec/commit/9c28faf5a8ff464b09d6bdae3ae00b436e7a8127
# label: correct
# class: clean
# pattern: TensorFlow 1 self-attentive sequential recommendation: heads split by tf.split / tf.concat onto the batch axis, scores divided by sqrt(C/h), key masks from the non-zero item embeddings (left-padded sequences), a lower-triangular causality mask from LinearOperatorLowerTriangular, both applied with tf.where(mask == 0, -2**32 + 1, scores); after the softmax the rows of padding queries are multiplied by a 0/1 query mask
# why: the key and causal masks are keep masks filled where 0, before the softmax; the query mask after the softmax only zeroes whole rows of padding positions (whose rows are fully masked and uniform); -2**32 + 1 is finite in float32, the graph's dtype
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/kang205/SASRec https://github.com/kang205/SASRec/commit/9c28faf5a8ff464b09d6bdae3ae00b436e7a8127 modules.py
import tensorflow as tf


def multihead_attention(queries, keys, num_units, num_heads=8, dropout_rate=0.0, is_training=True, causality=False, scope="multihead_attention", reuse=None):
    """queries (N, T_q, C), keys (N, T_k, C); padding items are all-zero embeddings."""
    with tf.variable_scope(scope, reuse=reuse):
        Q = tf.layers.dense(queries, num_units, activation=None)  # (N, T_q, C)
        K = tf.layers.dense(keys, num_units, activation=None)  # (N, T_k, C)
        V = tf.layers.dense(keys, num_units, activation=None)

        # split and concat the heads onto the batch axis
        Q_ = tf.concat(tf.split(Q, num_heads, axis=2), axis=0)  # (h*N, T_q, C/h)
        K_ = tf.concat(tf.split(K, num_heads, axis=2), axis=0)
        V_ = tf.concat(tf.split(V, num_heads, axis=2), axis=0)

        outputs = tf.matmul(Q_, tf.transpose(K_, [0, 2, 1]))  # (h*N, T_q, T_k)
        outputs = outputs / (K_.get_shape().as_list()[-1] ** 0.5)

        # key masking
        key_masks = tf.sign(tf.reduce_sum(tf.abs(keys), axis=-1))  # (N, T_k)
        key_masks = tf.tile(key_masks, [num_heads, 1])
        key_masks = tf.tile(tf.expand_dims(key_masks, 1), [1, tf.shape(queries)[1], 1])
        paddings = tf.ones_like(outputs) * (-2**32 + 1)
        outputs = tf.where(tf.equal(key_masks, 0), paddings, outputs)

        # causality: future blinding
        if causality:
            diag_vals = tf.ones_like(outputs[0, :, :])  # (T_q, T_k)
            tril = tf.linalg.LinearOperatorLowerTriangular(diag_vals).to_dense()
            masks = tf.tile(tf.expand_dims(tril, 0), [tf.shape(outputs)[0], 1, 1])
            paddings = tf.ones_like(masks) * (-2**32 + 1)
            outputs = tf.where(tf.equal(masks, 0), paddings, outputs)

        outputs = tf.nn.softmax(outputs)  # (h*N, T_q, T_k)

        # query masking: the rows of padding positions carry nothing
        query_masks = tf.sign(tf.reduce_sum(tf.abs(queries), axis=-1))  # (N, T_q)
        query_masks = tf.tile(query_masks, [num_heads, 1])
        query_masks = tf.tile(tf.expand_dims(query_masks, -1), [1, 1, tf.shape(keys)[1]])
        outputs *= query_masks

        outputs = tf.layers.dropout(outputs, rate=dropout_rate, training=tf.convert_to_tensor(is_training))
        outputs = tf.matmul(outputs, V_)  # (h*N, T_q, C/h)
        outputs = tf.concat(tf.split(outputs, num_heads, axis=0), axis=2)  # (N, T_q, C)
        return outputs + queries
