# case: b37-08-clean
# modelled-on: openai/sparse_attention https://github.com/openai/sparse_attention/commit/c53f3bdbf6225be0582f0357072e82b13c69be7d
# label: correct
# class: clean
# pattern: the dense reference path of the Sparse Transformer's attention in TensorFlow 1: a (1, 1, n, n) 0/1 mask is built with matrix_band_part for the 'all' (causal) and 'local' modes or from index arithmetic for the 'strided' mode; heads are split with reshape and transpose [0, 2, 1, 3]; scores are tf.matmul(q, k, transpose_b=True), cast to float32 when the inputs are float16, multiplied by 1/sqrt(head width), then masked as w * mask + -1e9 * (1 - mask) before tf.nn.softmax over the last axis
# why: correct: the mask is 1 where a query may attend (the band below and on the diagonal), so w * mask + -1e9 * (1 - mask) keeps those scores and replaces the others with -1e9, the additive form, in float32 because float16 scores are upcast first; the diagonal is always kept, so no row is empty; the scale is taken from q after the head split, i.e. the per-head width; transpose_b swaps only the last two axes of the keys
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT006, ATT007
# source: https://github.com/openai/sparse_attention https://github.com/openai/sparse_attention/commit/c53f3bdbf6225be0582f0357072e82b13c69be7d attention.py
import numpy as np
import tensorflow as tf


def dims(x):
    static = x.shape.as_list()
    dynamic = tf.shape(x)
    return [dynamic[i] if s is None else s for i, s in enumerate(static)]


def band_mask(n, mode, local_ctx=None):
    if mode == 'all':
        m = tf.matrix_band_part(tf.ones([n, n]), -1, 0)
    elif mode == 'local':
        width = tf.minimum(n - 1, local_ctx - 1)
        m = tf.matrix_band_part(tf.ones([n, n]), width, 0)
    elif mode == 'strided':
        rows = tf.reshape(tf.range(n, dtype=tf.int32), [n, 1])
        cols = tf.transpose(rows)
        zero = tf.zeros([n, n], dtype=tf.int32)
        qi, ki = zero + rows, zero + cols
        allowed = tf.logical_and(qi >= ki, tf.equal(tf.floormod(qi - ki, local_ctx), 0))
        m = tf.cast(allowed, tf.float32)
    else:
        raise ValueError('unknown attention mode: %s' % mode)
    return tf.reshape(m, [1, 1, n, n])


def to_heads(x, n_head):
    shape = dims(x)
    x = tf.reshape(x, shape[:-1] + [n_head, shape[-1] // n_head])
    return tf.transpose(x, [0, 2, 1, 3])


def from_heads(x):
    x = tf.transpose(x, [0, 2, 1, 3])
    shape = dims(x)
    return tf.reshape(x, shape[:-2] + [np.prod(shape[-2:])])


def dense_attention(q, k, v, n_head, mode, local_ctx=None):
    q = to_heads(q, n_head)
    k = to_heads(k, n_head)
    v = to_heads(v, n_head)
    n = dims(k)[2]
    mask = tf.to_float(band_mask(n, mode, local_ctx))
    w = tf.matmul(q, k, transpose_b=True)
    scale = 1.0 / np.sqrt(dims(q)[-1])
    in_dtype = q.dtype
    if in_dtype == tf.float16:
        w = tf.cast(w, tf.float32)
    w = w * scale
    w = w * mask + -1e9 * (1 - mask)
    w = tf.nn.softmax(w)
    w = tf.cast(w, in_dtype)
    return from_heads(tf.matmul(w, v))
