# case: t15h-06-clean
# modelled-on: tebesu/CollaborativeMemoryNetwork https://github.com/tebesu/CollaborativeMemoryNetwork/commit/0cbdc359b3858d40ea2d1090d72bfaca678066fb
# label: correct
# class: clean
# pattern: a TF1/Sonnet collaborative memory network (recommendation): a user query vector attends over a variable-length neighbourhood memory; scores are the unscaled dot products reduce_sum(query * memory, axis=2); a MemoryMask module builds tf.sequence_mask(lengths) and clamps the scores with tf.minimum(scores, finfo.max * kept + finfo.min * ignored), so kept slots are unchanged and ignored slots become float32's minimum; tf.nn.softmax runs over the last axis; the output memory is transposed to (batch, emb, length) and weighted by the expanded attention before a reduce_sum over the length
# why: correct: the sequence mask is a keep mask (True = a real neighbour) and the clamp sends exactly the ignored slots to the most negative float32, which the softmax maps to 0 (every row keeps at least one slot, asserted); memory networks score with an unscaled inner product by design (the paper's p_i = softmax(u . m_i), no 1/sqrt(d)); the [0, 2, 1] transpose moves the output memory's length axis last to match the attention, not the keys of a score product
# looks-like: ATT002, ATT003, ATT005, ATT007
# source: https://github.com/tebesu/CollaborativeMemoryNetwork https://github.com/tebesu/CollaborativeMemoryNetwork/commit/0cbdc359b3858d40ea2d1090d72bfaca678066fb util/attention.py
import numpy as np
import sonnet as snt
import tensorflow as tf


class LengthMask(snt.AbstractModule):
    def __init__(self, name="LengthMask"):
        super().__init__(name=name)

    def _build(self, scores, lengths, maxlen=None):
        keep = tf.sequence_mask(lengths, maxlen=maxlen)  # (batch, length), True = real slot
        remaining = tf.reduce_sum(tf.cast(keep, dtype=tf.int32), axis=[1])
        with tf.control_dependencies([tf.assert_positive(remaining)]):
            finfo = np.finfo(np.float32)
            kept = tf.cast(keep, dtype=tf.float32)
            ignored = tf.cast(tf.logical_not(keep), dtype=tf.float32)
            bound = finfo.max * kept + finfo.min * ignored
            width = tf.reduce_max(lengths)
            return tf.minimum(scores[:, :width], bound[:, :width])


class MemoryAttention(snt.AbstractModule):
    def __init__(self, name="MemoryAttention"):
        super().__init__(name=name)

    def _build(self, memory, output_memory, query, lengths=None, maxlen=None):
        """memory, output_memory: (batch, length, emb); query: (batch, emb)."""
        query_row = tf.transpose(tf.expand_dims(query, -1), [0, 2, 1])  # (batch, 1, emb)
        scores = tf.reduce_sum(query_row * memory, axis=2)  # (batch, length)

        if lengths is not None:
            scores = LengthMask()(scores, lengths, maxlen)

        attention = tf.nn.softmax(scores, name="Attention")
        probs = tf.expand_dims(attention, 1)  # (batch, 1, length)
        values = tf.transpose(output_memory, [0, 2, 1])  # (batch, emb, length)
        weighted = tf.multiply(values, probs)
        return tf.reduce_sum(weighted, axis=2), attention
