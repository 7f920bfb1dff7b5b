# case: b59-11-clean
# modelled-on: tkdguraa/point-transformer-tensorflow https://github.com/tkdguraa/point-transformer-tensorflow/commit/d1844038afceb9389df4b38fd7dc5826e417e9b7
# label: correct
# class: clean
# pattern: the vector self-attention layer of a Point Transformer in TensorFlow 1: for each of N points, its K = 16 nearest neighbours are grouped into (B, N, K, C) tensors; query/key features and a positional encoding of the relative coordinates go through 1x1 convolutions (an MLP, no dot product) to per-channel attention logits of shape (B, N, K, C), `tf.nn.softmax(logits, 2)` normalises them, and the weighted values are summed with `reduce_sum(..., -2, keep_dims=True)`
# why: correct: in vector attention each channel has its own weights over the neighbours, so the softmax belongs on axis 2, the K neighbour axis of (B, N, K, C), which is also the axis the weighted sum reduces (-2 of the same 4-d tensor); the logits come from an MLP on feature differences, not from a dot product, so there is no 1/sqrt(d) to apply; every point has exactly K neighbours, so nothing is masked
# looks-like: ATT001, ATT003
# source: https://github.com/tkdguraa/point-transformer-tensorflow https://github.com/tkdguraa/point-transformer-tensorflow/commit/d1844038afceb9389df4b38fd7dc5826e417e9b7 transformer.py
import tensorflow as tf


def pointwise(x, channels, scope, is_training, activation=tf.nn.relu, use_bias=True):
    """1x1 convolution + batch norm over (B, N, K, C) features."""
    with tf.variable_scope(scope):
        y = tf.layers.conv2d(x, channels, [1, 1], padding="valid", use_bias=use_bias)
        y = tf.layers.batch_normalization(y, training=is_training)
        return activation(y) if activation is not None else y


def vector_attention(center_feats, xyz, rel_xyz, group_fn, dim, tag, is_training):
    """center_feats: (B, N, C); rel_xyz: (B, N, K, 3) neighbour offsets; group_fn gathers (B, N, K, C)."""
    feats = tf.expand_dims(center_feats, 2)  # (B, N, 1, C)

    pos = pointwise(rel_xyz, dim // 2, "pos_a_%s" % tag, is_training)
    delta = pointwise(pos, dim, "pos_b_%s" % tag, is_training, activation=None, use_bias=False)

    phi = pointwise(feats, dim, "phi_%s" % tag, is_training, activation=None, use_bias=False)
    phi = group_fn(xyz, tf.squeeze(phi, 2))  # (B, N, K, dim)
    psi = pointwise(feats, dim, "psi_%s" % tag, is_training, activation=None, use_bias=False)
    psi = group_fn(xyz, tf.squeeze(psi, 2))
    alpha = pointwise(feats, dim, "alpha_%s" % tag, is_training, activation=None, use_bias=False)

    logits = pointwise(psi - phi + delta, dim, "gamma_a_%s" % tag, is_training)
    logits = pointwise(logits, dim, "gamma_b_%s" % tag, is_training, activation=None, use_bias=False)

    values = delta + alpha
    weights = tf.nn.softmax(logits, 2)
    out = tf.reduce_sum(tf.multiply(weights, values), -2, keep_dims=True)  # (B, N, 1, dim)
    return out


def transformer_block(feats, xyz, sample_and_group, dim, tag, is_training):
    """Linear in, vector attention over 16 neighbours, linear out, concatenated to the input."""
    x = pointwise(tf.expand_dims(feats, -2), dim, "in_%s" % tag, is_training, activation=None, use_bias=False)
    x = tf.squeeze(x, 2)
    _, _, rel_xyz, _ = sample_and_group(xyz, x, nsample=16)

    def group_fn(points, values):
        return sample_and_group(points, values, nsample=16)[1]

    y = vector_attention(x, xyz, rel_xyz, group_fn, dim, tag, is_training)
    y = pointwise(y, dim, "out_%s" % tag, is_training, activation=None, use_bias=False)
    return tf.concat([feats, tf.squeeze(y, 2)], -1)
