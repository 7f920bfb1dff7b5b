# case: t12e-10-clean
# modelled-on: kkw0877/Transformer-tensorflow https://github.com/kkw0877/Transformer-tensorflow/commit/7aef0d4ebfb277d19dd349fc441568478a6bc477
# label: correct
# class: clean
# pattern: a TensorFlow 1.x transformer helper module: multi-head attention splits the projected (batch, T, d_model) tensors into heads with tf.concat(tf.split(x, num_heads, axis=-1), axis=0), so the scaled dot-product function sees (batch*heads, T, d_model/heads); it transposes the keys with tf.transpose(key, perm=[0, 2, 1]), divides by sqrt of key.get_shape()[-1], and for the decoder builds a lower-triangular ones matrix with LinearOperatorLowerTriangular, tiles it over the batch and writes -2**32 + 1 where it equals 0 via tf.where before a softmax over axis -1
# why: correct: the key width read inside the helper is the per-head width, since the heads were moved into the batch axis before the call; perm=[0, 2, 1] swaps the last two axes of 3-D keys; the tril matrix is 1 on and below the diagonal, so tf.where(equal(mask, 0), negative, scores) hides exactly the future keys and every row keeps its diagonal; -2**32 + 1 is finite in float32; what a naive linter could misread: ATT004 (a scale read off the key shape), ATT005 (tf.transpose with a perm), ATT002 (a tril mask compared with 0 in tf.where), ATT007 (a -2**32 + 1 fill)
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/kkw0877/Transformer-tensorflow https://github.com/kkw0877/Transformer-tensorflow/commit/7aef0d4ebfb277d19dd349fc441568478a6bc477 model_helper.py
import tensorflow as tf


def dense(inputs, units):
    return tf.keras.layers.Dense(units, activation=tf.nn.relu)(inputs)


def scaled_dot_product_attention(query, key, value, mask=False):
    key_size = float(key.get_shape().as_list()[-1])
    key_t = tf.transpose(key, perm=[0, 2, 1])
    outputs = tf.matmul(query, key_t) / tf.sqrt(key_size)
    if mask:
        ones = tf.ones_like(outputs[0, :, :])
        tril = tf.linalg.LinearOperatorLowerTriangular(ones).to_dense()
        masking = tf.tile(tf.expand_dims(tril, 0), [tf.shape(outputs)[0], 1, 1])
        negative = tf.ones_like(outputs) * (-2 ** 32 + 1)
        outputs = tf.where(tf.equal(masking, 0), negative, outputs)
    outputs = tf.nn.softmax(outputs, axis=-1)
    return tf.matmul(outputs, value)


def multi_head_attention(query, key, value, d_model, num_heads, mask=False):
    query, key, value = dense(query, d_model), dense(key, d_model), dense(value, d_model)
    # (batch, T, d_model) -> (batch * heads, T, d_model / heads)
    query = tf.concat(tf.split(query, num_heads, axis=-1), axis=0)
    key = tf.concat(tf.split(key, num_heads, axis=-1), axis=0)
    value = tf.concat(tf.split(value, num_heads, axis=-1), axis=0)
    outputs = scaled_dot_product_attention(query, key, value, mask)
    outputs = tf.concat(tf.split(outputs, num_heads, axis=0), axis=-1)
    return dense(outputs, d_model)
