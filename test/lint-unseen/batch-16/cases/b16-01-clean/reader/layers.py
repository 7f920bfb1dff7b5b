import tensorflow as tf

BIG = 1e30


def dense(x, units, use_bias=True, scope="dense"):
    with tf.variable_scope(scope):
        return tf.layers.dense(x, units, use_bias=use_bias)


def drop(x, keep_prob, is_train):
    if keep_prob < 1.0:
        return tf.cond(is_train, lambda: tf.nn.dropout(x, keep_prob), lambda: x)
    return x


def apply_mask(logits, mask):
    # mask: True / 1 on real tokens; padding gets -1e30 added
    return logits + (-BIG) * (1.0 - tf.cast(mask, tf.float32))


def pool(memory, hidden, mask, keep_prob=1.0, is_train=None, scope="pool"):
    with tf.variable_scope(scope):
        h = tf.nn.tanh(dense(drop(memory, keep_prob, is_train), hidden, scope="h"))
        s = dense(h, 1, use_bias=False, scope="s")
        s = apply_mask(tf.squeeze(s, [2]), mask)
        a = tf.expand_dims(tf.nn.softmax(s), axis=2)
        return tf.reduce_sum(a * memory, axis=1)


def gated_dot_attention(inputs, memory, mask, hidden, keep_prob=1.0, is_train=None, scope="gated_dot_attention"):
    with tf.variable_scope(scope):
        n_query = tf.shape(inputs)[1]
        with tf.variable_scope("attend"):
            q = tf.nn.relu(dense(drop(inputs, keep_prob, is_train), hidden, use_bias=False, scope="q"))
            m = tf.nn.relu(dense(drop(memory, keep_prob, is_train), hidden, use_bias=False, scope="m"))
            scores = tf.matmul(q, tf.transpose(m, [0, 2, 1])) / (hidden ** 0.5)
            key_mask = tf.tile(tf.expand_dims(mask, axis=1), [1, n_query, 1])
            weights = tf.nn.softmax(apply_mask(scores, key_mask))
            context = tf.matmul(weights, memory)
            res = tf.concat([inputs, context], axis=2)
        with tf.variable_scope("gate"):
            width = res.get_shape().as_list()[-1]
            gate = tf.nn.sigmoid(dense(drop(res, keep_prob, is_train), width, use_bias=False))
            return res * gate
