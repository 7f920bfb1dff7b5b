"""Segment reductions used by the graph layers (disjoint mode: one node matrix, a graph id per node)."""
import tensorflow as tf


def segment_softmax(logits, segment_ids, n_segments=None):
    """Softmax of `logits` within each segment along the first axis; same shape as `logits`."""
    if n_segments is None:
        n_segments = tf.reduce_max(segment_ids) + 1
    seg_max = tf.math.unsorted_segment_max(logits, segment_ids, n_segments)
    shifted = tf.exp(logits - tf.gather(seg_max, segment_ids))
    totals = tf.math.unsorted_segment_sum(shifted, segment_ids, n_segments)
    return shifted / tf.gather(totals + 1e-9, segment_ids)


def segment_mean(values, segment_ids):
    return tf.math.segment_mean(values, segment_ids)
