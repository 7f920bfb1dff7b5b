import tensorflow as tf
import tensorflow.contrib.slim as slim


def static_shape(x):
    return [d if d is not None else -1 for d in x.get_shape().as_list()]


def tile_to_grid(vec):
    # (B, D) -> (B, 1, 1, D), broadcast over the feature map
    return tf.expand_dims(tf.expand_dims(vec, 1), 1)


def bilinear_fuse(image, context, width, keep_prob, scope=""):
    """Low-rank bilinear fusion of a feature map (or vector) with a question vector."""
    with tf.variable_scope(scope or "fuse"):
        q = slim.fully_connected(context, width, activation_fn=tf.nn.tanh, scope="q_proj")
        if len(static_shape(image)) == 4:
            q = tile_to_grid(q)
            v = slim.conv2d(image, width, [1, 1], activation_fn=tf.nn.tanh, scope="v_proj")
        else:
            v = slim.fully_connected(image, width, activation_fn=tf.nn.tanh, scope="v_proj")
        return slim.dropout(v * q, keep_prob=keep_prob)


def grid_softmax(logits):
    """Softmax over all H x W cells of every channel of an NHWC map."""
    shape = static_shape(logits)
    cells = shape[1] * shape[2]
    nchw = tf.transpose(logits, perm=[0, 3, 1, 2])
    flat_shape = static_shape(nchw)
    probs = tf.nn.softmax(tf.reshape(nchw, [-1, cells]))
    probs = tf.reshape(probs, flat_shape)
    return tf.transpose(probs, perm=[0, 2, 3, 1])


def attend_grid(image, fused):
    logits = slim.conv2d(fused, 1, [1, 1], activation_fn=None, scope="att_logits")
    weights = grid_softmax(logits)                      # (B, H, W, 1), sums to 1 over H, W
    return tf.reduce_sum(weights * image, axis=[1, 2]), weights
