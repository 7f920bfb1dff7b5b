# case: b49-01-clean
# modelled-on: osmoai/kgcnn-keras-unlocked https://github.com/osmoai/kgcnn-keras-unlocked/commit/24d8b61214405f855d8a893469dfc59c0ea6c075
# label: correct
# class: clean
# pattern: a graph attention (GAT) layer for ragged molecular graphs in TensorFlow/Keras (a folder: the head that projects nodes, gathers both ends of every edge and scores the pair with a one-unit Dense layer, the weightless pooling layer that normalises the scores over each node's incoming edges, and the segment helpers that do the per-node softmax)
# why: correct: GAT attention is additive, a LeakyReLU of a learned projection of [W h_i || W h_j], with no dot product and so no 1/sqrt(d) factor; the coefficients are one scalar per edge, flattened to (edges, 1), and the softmax is taken per receiving node by a segment max / exp / segment sum over edges sorted by receiver, so each node's incoming weights sum to one (the max-shift only stabilises it); the pooled rows are padded for nodes without incoming edges; heads are concatenated or averaged as in the GAT paper
# looks-like: ATT001, ATT003
# source: https://github.com/osmoai/kgcnn-keras-unlocked https://github.com/osmoai/kgcnn-keras-unlocked/commit/24d8b61214405f855d8a893469dfc59c0ea6c075 kgcnn/layers/attention.py
import tensorflow as tf

from edge_pool import AttentiveEdgePooling


def _ends(values, pairs, column):
    """Gathers, for every edge, the row of the node found in `column` of its index pair."""
    offsets = tf.repeat(tf.cumsum(values.row_lengths(), exclusive=True), pairs.row_lengths())
    picked = pairs.values[:, column] + tf.cast(offsets, pairs.values.dtype)
    gathered = tf.gather(values.values, picked)
    return tf.RaggedTensor.from_row_lengths(gathered, pairs.row_lengths())


class GraphAttentionHead(tf.keras.layers.Layer):
    """One head: h_i' = act(sum_j alpha_ij W h_j), alpha_ij = softmax_j(LeakyReLU(a^T [W h_i || W h_j]))."""

    def __init__(self, units, with_edge_features=False, final_act=True, **kwargs):
        super().__init__(**kwargs)
        self.units = int(units)
        self.with_edge_features = with_edge_features
        self.project = tf.keras.layers.Dense(self.units, use_bias=True)
        self.score = tf.keras.layers.Dense(1, activation=tf.nn.leaky_relu, use_bias=False)
        self.pool = AttentiveEdgePooling()
        self.final_act = tf.keras.layers.Activation(tf.nn.leaky_relu) if final_act else None

    def call(self, inputs):
        nodes, edges, pairs = inputs
        wh = tf.ragged.map_flat_values(self.project, nodes)
        wh_recv = _ends(wh, pairs, 0)
        wh_send = _ends(wh, pairs, 1)
        parts = [wh_recv, wh_send, edges] if self.with_edge_features else [wh_recv, wh_send]
        pair_feat = tf.concat(parts, axis=-1)
        logits = tf.ragged.map_flat_values(self.score, pair_feat)  # (batch, [edges], 1)
        out = self.pool([nodes, wh_send, logits, pairs])
        if self.final_act is not None:
            out = tf.ragged.map_flat_values(self.final_act, out)
        return out


class MultiHeadGraphAttention(tf.keras.layers.Layer):
    def __init__(self, units, num_heads=4, merge="concat", **kwargs):
        super().__init__(**kwargs)
        self.merge = merge
        self.heads = [GraphAttentionHead(units, final_act=merge != "mean") for _ in range(num_heads)]

    def call(self, inputs):
        outs = [head(inputs) for head in self.heads]
        if self.merge == "concat":
            return tf.concat(outs, axis=-1)
        stacked = tf.stack([o.flat_values for o in outs], axis=0)
        mean = tf.reduce_mean(stacked, axis=0)
        return tf.RaggedTensor.from_row_lengths(mean, outs[0].row_lengths())
