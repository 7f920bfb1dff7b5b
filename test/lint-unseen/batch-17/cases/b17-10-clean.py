# case: b17-10-clean
# modelled-on: zhougr1993/DeepInterestNetwork https://github.com/zhougr1993/DeepInterestNetwork/commit/9765f96202f849e59ff260c8b46931a0ddf01d77
# label: correct
# class: clean
# pattern: the Deep Interest Network's activation unit in TF1: the candidate item is tiled over the user's behaviour sequence, [q, k, q - k, q * k] goes through a sigmoid MLP to one logit per behaviour, reshaped to (B, 1, T); a tf.sequence_mask keep mask built from the behaviour lengths selects the logits with tf.where(mask, logits, -2**32 + 1); the result is divided by sqrt(H) and softmaxed over the last axis before tf.matmul with the keys; a multi-item variant does the same with (B, N, 1, T) logits
# why: correct: tf.sequence_mask is True on real behaviours, and tf.where keeps the logit where it is True and puts -2**32 + 1 on padding, the right polarity, a finite fill that stays very negative after the division and cannot make NaN; the (B, 1, T) reshape makes the last axis the behaviours, so the default softmax axis normalises over them; the division by sqrt(H) is the authors' temperature on MLP logits (additive attention has no prescribed scale) and is applied before the softmax
# looks-like: ATT001, ATT002, ATT004, ATT007
# source: https://github.com/zhougr1993/DeepInterestNetwork https://github.com/zhougr1993/DeepInterestNetwork/commit/9765f96202f849e59ff260c8b46931a0ddf01d77 din/model.py
import tensorflow as tf


def _activation_unit(din_all):
    h1 = tf.layers.dense(din_all, 80, activation=tf.nn.sigmoid, name="f1_att", reuse=tf.AUTO_REUSE)
    h2 = tf.layers.dense(h1, 40, activation=tf.nn.sigmoid, name="f2_att", reuse=tf.AUTO_REUSE)
    return tf.layers.dense(h2, 1, activation=None, name="f3_att", reuse=tf.AUTO_REUSE)


def attention(queries, keys, keys_length):
    """queries: [B, H]; keys: [B, T, H]; keys_length: [B]."""
    hidden = queries.get_shape().as_list()[-1]
    queries = tf.tile(queries, [1, tf.shape(keys)[1]])
    queries = tf.reshape(queries, [-1, tf.shape(keys)[1], hidden])
    din_all = tf.concat([queries, keys, queries - keys, queries * keys], axis=-1)
    outputs = tf.reshape(_activation_unit(din_all), [-1, 1, tf.shape(keys)[1]])  # [B, 1, T]

    key_masks = tf.expand_dims(tf.sequence_mask(keys_length, tf.shape(keys)[1]), 1)  # [B, 1, T]
    paddings = tf.ones_like(outputs) * (-2 ** 32 + 1)
    outputs = tf.where(key_masks, outputs, paddings)

    outputs = outputs / (keys.get_shape().as_list()[-1] ** 0.5)
    outputs = tf.nn.softmax(outputs)  # [B, 1, T]
    return tf.matmul(outputs, keys)  # [B, 1, H]


def attention_multi_items(queries, keys, keys_length):
    """queries: [B, N, H] (N candidate ads); keys: [B, T, H]; keys_length: [B]."""
    hidden = queries.get_shape().as_list()[-1]
    n = queries.get_shape().as_list()[1]
    max_len = tf.shape(keys)[1]
    queries = tf.reshape(tf.tile(queries, [1, 1, max_len]), [-1, n, max_len, hidden])  # [B, N, T, H]
    keys = tf.reshape(tf.tile(keys, [1, n, 1]), [-1, n, max_len, hidden])  # [B, N, T, H]
    din_all = tf.concat([queries, keys, queries - keys, queries * keys], axis=-1)
    outputs = tf.reshape(_activation_unit(din_all), [-1, n, 1, max_len])  # [B, N, 1, T]

    key_masks = tf.reshape(tf.tile(tf.sequence_mask(keys_length, max_len), [1, n]), [-1, n, 1, max_len])
    paddings = tf.ones_like(outputs) * (-2 ** 32 + 1)
    outputs = tf.where(key_masks, outputs, paddings)

    outputs = outputs / (keys.get_shape().as_list()[-1] ** 0.5)
    outputs = tf.nn.softmax(outputs)  # [B, N, 1, T]
    outputs = tf.reshape(outputs, [-1, 1, max_len])
    keys = tf.reshape(keys, [-1, max_len, hidden])
    return tf.reshape(tf.matmul(outputs, keys), [-1, n, hidden])  # [B, N, H]
