import tensorflow as tf


def softmax_per_segment(logits, segment_ids, stable=True):
    """Softmax of `logits` taken separately inside every segment.

    `segment_ids` must be sorted; rows that share an id are normalised together, so
    for edge logits grouped by receiving node the weights of each node's incoming
    edges sum to one.
    """
    if stable:
        peak = tf.gather(tf.math.segment_max(logits, segment_ids), segment_ids)
        logits = logits - peak
    numer = tf.math.exp(logits)
    denom = tf.gather(tf.math.segment_sum(numer, segment_ids), segment_ids)
    return numer / denom


def scatter_to_length(per_segment, total):
    """Appends zero rows so that nodes without incoming edges still get an output row."""
    missing = total - tf.shape(per_segment)[0]
    return tf.pad(per_segment, [[0, missing], [0, 0]])
