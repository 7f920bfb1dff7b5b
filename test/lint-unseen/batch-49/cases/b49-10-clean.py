# case: b49-10-clean
# modelled-on: osmoai/kgcnn-keras-unlocked https://github.com/osmoai/kgcnn-keras-unlocked/commit/24d8b61214405f855d8a893469dfc59c0ea6c075
# label: correct
# class: clean
# pattern: the attentive graph readout of an AttentiveFP model in TensorFlow/Keras over ragged node tensors: the graph state starts as a sum over nodes, and for `depth` rounds it is broadcast back to its nodes, a one-unit Dense layer scores [state || node] per node, the scores are normalised over the nodes of each graph with a segment softmax on the flat values, the attention-weighted sum of projected nodes (after an ELU) updates the state through a GRU cell
# why: correct: the scores are (total_nodes, 1), one per node, and the softmax is taken per graph through the row ids (segment max shift, exp, segment sum, gather back), so each molecule's weights sum to one; an axis-based softmax over the flat values would mix graphs, which this avoids; the scores come from an additive (Dense over a concatenation) attention, so no 1/sqrt(d) factor applies
# looks-like: ATT001, ATT003
# source: https://github.com/osmoai/kgcnn-keras-unlocked https://github.com/osmoai/kgcnn-keras-unlocked/commit/24d8b61214405f855d8a893469dfc59c0ea6c075 kgcnn/literature/AttentiveFP/_attentivefp_conv.py
import tensorflow as tf


def graph_softmax(scores, graph_ids, num_graphs):
    """Softmax of per-node scores, normalised separately inside each graph."""
    top = tf.math.unsorted_segment_max(scores, graph_ids, num_graphs)
    shifted = tf.math.exp(scores - tf.gather(top, graph_ids))
    total = tf.math.unsorted_segment_sum(shifted, graph_ids, num_graphs)
    return shifted / tf.gather(total, graph_ids)


class AttentiveReadout(tf.keras.layers.Layer):
    """s_{t+1} = GRU(elu(sum_v softmax_v(a(s_t, h_v)) W h_v), s_t) for `depth` steps."""

    def __init__(self, units, depth=3, score_activation="leaky_relu", **kwargs):
        super().__init__(**kwargs)
        self.units = int(units)
        self.depth = depth
        self.node_proj = tf.keras.layers.Dense(self.units)
        self.scorer = tf.keras.layers.Dense(1, activation=score_activation)
        self.context_act = tf.keras.layers.Activation("elu")
        self.cell = tf.keras.layers.GRUCell(self.units)

    def call(self, nodes, training=None):
        # nodes: tf.RaggedTensor (graphs, [n_nodes], units)
        flat = nodes.flat_values
        owner = nodes.value_rowids()
        n_graphs = nodes.nrows()
        state = tf.math.segment_sum(flat, owner)  # start from a sum over nodes
        projected = self.node_proj(flat)
        for _ in range(self.depth):
            state_per_node = tf.gather(state, owner)
            scores = self.scorer(tf.concat([state_per_node, flat], axis=-1))  # (total_nodes, 1)
            weights = graph_softmax(scores, owner, n_graphs)
            context = tf.math.unsorted_segment_sum(projected * weights, owner, n_graphs)
            context = self.context_act(context)
            state, _ = self.cell(context, [state], training=training)
        return state


def molecule_head(units=200, depth=2, targets=1):
    nodes = tf.keras.Input(shape=(None, units), ragged=True)
    pooled = AttentiveReadout(units, depth=depth)(nodes)
    out = tf.keras.layers.Dense(targets)(tf.keras.layers.Dropout(0.2)(pooled))
    return tf.keras.Model(nodes, out)
