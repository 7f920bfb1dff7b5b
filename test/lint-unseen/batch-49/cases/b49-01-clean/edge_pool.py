import tensorflow as tf

from segment_ops import scatter_to_length, softmax_per_segment


class AttentiveEdgePooling(tf.keras.layers.Layer):
    """n_i = sum_j softmax_j(a_ij) * e_ij, the softmax taken over the edges that enter node i.

    The layer owns no weights; the coefficients a_ij arrive precomputed, one per edge.
    """

    def __init__(self, receiver_column=0, edges_sorted=False, **kwargs):
        super().__init__(**kwargs)
        self.receiver_column = receiver_column
        self.edges_sorted = edges_sorted

    def call(self, inputs):
        nodes, messages, coeffs, pairs = inputs
        node_rows = nodes.values
        flat_msg = messages.values
        flat_coeff = coeffs.values  # (total edges, 1)
        # shift per-graph node indices into the disjoint batch graph
        offsets = tf.repeat(tf.cumsum(nodes.row_lengths(), exclusive=True), pairs.row_lengths())
        receivers = pairs.values[:, self.receiver_column] + tf.cast(offsets, pairs.values.dtype)

        if not self.edges_sorted:
            order = tf.argsort(receivers)
            receivers = tf.gather(receivers, order)
            flat_msg = tf.gather(flat_msg, order)
            flat_coeff = tf.gather(flat_coeff, order)

        alpha = softmax_per_segment(flat_coeff, receivers)
        pooled = tf.math.segment_sum(flat_msg * alpha, receivers)
        pooled = scatter_to_length(pooled, tf.shape(node_rows)[0])
        return tf.RaggedTensor.from_row_lengths(pooled, nodes.row_lengths())
