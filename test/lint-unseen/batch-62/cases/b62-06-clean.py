# case: b62-06-clean
# modelled-on: danielegrattarola/spektral https://github.com/danielegrattarola/spektral/commit/570cb9197177866628f6dce987852e5688349bed
# label: correct
# class: clean
# pattern: an attention-based graph neural network (AGNN) layer of a Keras graph-network library, written as message passing over a sparse adjacency in single or disjoint mode: node features are L2-normalised, each edge (i <- j) gets the logit beta * cos(x_i, x_j) with a single trainable temperature beta, the logits are normalised per receiving node by a segment softmax over the edge list (maximum subtracted per segment, exponentiated, divided by the segment sum, gathered back to the edges), and the messages alpha_ij * x_j are summed per receiving node
# why: correct: the AGNN paper defines P_ij = exp(beta cos(x_i, x_j)) / sum over the neighbourhood of i, so the normalisation runs over the edges that share a receiver, which is what the segment softmax over the receiver ids does (a plain softmax over the edge list would mix all nodes); the logits are cosine similarities scaled by a learned beta, not dot products, so no 1/sqrt(d) factor belongs there; self loops are in the adjacency the caller passes
# looks-like: ATT001, ATT003
# source: https://github.com/danielegrattarola/spektral https://github.com/danielegrattarola/spektral/commit/570cb9197177866628f6dce987852e5688349bed spektral/layers/convolutional/agnn_conv.py
import tensorflow as tf
from tensorflow.keras import backend as K
from tensorflow.keras.layers import Layer


def _per_receiver_softmax(logits, receivers, n_nodes):
    top = tf.gather(tf.math.unsorted_segment_max(logits, receivers, n_nodes), receivers)
    num = tf.exp(logits - top)
    den = tf.gather(tf.math.unsorted_segment_sum(num, receivers, n_nodes), receivers)
    return num / (den + 1e-9)


class CosineAttentionConv(Layer):
    """X' = P X with P_ij = softmax over j in N(i) of beta * cos(x_i, x_j)."""

    def __init__(self, learn_beta=True, activation=None, **kwargs):
        super().__init__(**kwargs)
        self.learn_beta = learn_beta
        self.activation = tf.keras.activations.get(activation)

    def build(self, input_shape):
        if self.learn_beta:
            self.beta = self.add_weight(shape=(1,), initializer="ones", name="beta")
        else:
            self.beta = tf.constant(1.0, dtype=self.dtype)
        self.built = True

    def call(self, inputs):
        x, a = inputs[0], inputs[1]
        if not isinstance(a, tf.SparseTensor):
            a = tf.sparse.from_dense(a)
        n_nodes = tf.shape(x, out_type=a.indices.dtype)[0]
        receivers, senders = a.indices[:, 0], a.indices[:, 1]

        unit = K.l2_normalize(x, axis=-1)
        cos = tf.reduce_sum(tf.gather(unit, receivers) * tf.gather(unit, senders), axis=-1)
        alpha = _per_receiver_softmax(self.beta * cos, receivers, n_nodes)

        messages = alpha[:, None] * tf.gather(x, senders)
        out = tf.math.unsorted_segment_sum(messages, receivers, n_nodes)
        return self.activation(out)

    def get_config(self):
        return {**super().get_config(), "learn_beta": self.learn_beta}
