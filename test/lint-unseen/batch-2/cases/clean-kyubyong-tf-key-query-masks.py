# case: clean-kyubyong-tf-key-query-masks
# modelled-on: Kyubyong/transformer https://github.com/Kyubyong/transformer/issues/54
# label: correct
# class: clean
# pattern: TF1 transformer: masks derived from the inputs themselves (sign of the summed absolute embedding, 0 = padding) inside a mask() helper with a type switch; key padding filled with -2**32 + 1 through tf.where(equal(mask, 0), ...), a lower-triangular future mask, and the query mask multiplied into the weights after the softmax; the transposed weights are only summarised as an image
# why: the key mask is applied before the softmax where the key mask is 0; the query mask only zeroes whole rows of padded queries, which does not change any real query's distribution (the point of issue #54); -2**32 + 1 is representable in the float32 graph; the transpose of the weights feeds a summary, not the product with V
# looks-like: ATT001, ATT002, ATT005, ATT006, ATT007
# source: https://github.com/Kyubyong/transformer https://github.com/Kyubyong/transformer/commit/2234b4268355ccc073d8f0535fdd395289001151 modules.py
import tensorflow as tf


def mask(inputs, queries=None, keys=None, kind=None):
    """inputs: (N, T_q, T_k) scores or weights; queries: (N, T_q, d); keys: (N, T_k, d)."""
    padding_num = -2 ** 32 + 1
    if kind == "key":
        masks = tf.sign(tf.reduce_sum(tf.abs(keys), axis=-1))  # (N, T_k), 0 = padding
        masks = tf.tile(tf.expand_dims(masks, 1), [1, tf.shape(queries)[1], 1])  # (N, T_q, T_k)
        paddings = tf.ones_like(inputs) * padding_num
        return tf.where(tf.equal(masks, 0), paddings, inputs)
    if kind == "query":
        masks = tf.sign(tf.reduce_sum(tf.abs(queries), axis=-1))  # (N, T_q)
        masks = tf.tile(tf.expand_dims(masks, -1), [1, 1, tf.shape(keys)[1]])  # (N, T_q, T_k)
        return inputs * masks
    if kind == "future":
        diag_vals = tf.ones_like(inputs[0, :, :])  # (T_q, T_k)
        tril = tf.linalg.LinearOperatorLowerTriangular(diag_vals).to_dense()
        masks = tf.tile(tf.expand_dims(tril, 0), [tf.shape(inputs)[0], 1, 1])  # (N, T_q, T_k)
        paddings = tf.ones_like(masks) * padding_num
        return tf.where(tf.equal(masks, 0), paddings, inputs)
    raise ValueError("unknown mask kind %s" % kind)


def scaled_dot_product_attention(Q, K, V, causality=False, dropout_rate=0.0, training=True):
    """Q: (N, T_q, d_k); K: (N, T_k, d_k); V: (N, T_k, d_v)."""
    with tf.variable_scope("scaled_dot_product_attention", reuse=tf.AUTO_REUSE):
        d_k = Q.get_shape().as_list()[-1]
        outputs = tf.matmul(Q, tf.transpose(K, [0, 2, 1]))  # (N, T_q, T_k)
        outputs /= d_k ** 0.5
        outputs = mask(outputs, Q, K, kind="key")
        if causality:
            outputs = mask(outputs, kind="future")
        outputs = tf.nn.softmax(outputs)
        attention = tf.transpose(outputs, [0, 2, 1])
        tf.summary.image("attention", tf.expand_dims(attention[:1], -1))
        outputs = mask(outputs, Q, K, kind="query")
        outputs = tf.layers.dropout(outputs, rate=dropout_rate, training=training)
        return tf.matmul(outputs, V)  # (N, T_q, d_v)
