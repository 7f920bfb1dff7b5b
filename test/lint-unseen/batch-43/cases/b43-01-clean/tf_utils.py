import tensorflow as tf


def repeat_along(tensor, counts, axes):
    """Insert new axes at `axes` and tile them `counts` times."""
    pairs = sorted(zip(counts, axes), key=lambda p: p[1])
    counts = [c for c, _ in pairs]
    axes = [a for _, a in pairs]
    for axis in axes:
        tensor = tf.expand_dims(tensor, axis)
    multiples = []
    for i in range(len(tensor.shape)):
        multiples.append(counts[axes.index(i)] if i in axes else 1)
    return tf.tile(tensor, multiples)
