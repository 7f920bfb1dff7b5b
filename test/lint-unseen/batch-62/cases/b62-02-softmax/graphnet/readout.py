# case: b62-02-softmax
# modelled-on: danielegrattarola/spektral https://github.com/danielegrattarola/spektral/commit/570cb9197177866628f6dce987852e5688349bed
# label: correct
# class: fixed
# pattern: the node-attention sum pooling of a Keras graph-network library after its fix (a folder: `scatter.py` holds a segment softmax that subtracts each graph's maximum and divides by each graph's sum, gathered back to the nodes); the layer scores every node with a learned vector and, per data mode, takes `K.softmax` over the nodes of a single graph, `K.softmax` over the last axis of padded (B, N) scores in batch mode, and the segment softmax over the graph ids in disjoint mode, where all graphs share one node axis
# why: correct: in every mode the attention weights are normalised over the nodes of one graph: the last axis of (N,) or (B, N) scores, or each graph's segment of the stacked node axis; this is the maintainer's fix (commit 570cb91, issue #302) of the single softmax that had normalised over the whole disjoint batch
# looks-like: ATT001, ATT003
# source: https://github.com/danielegrattarola/spektral https://github.com/danielegrattarola/spektral/commit/570cb9197177866628f6dce987852e5688349bed spektral/layers/pooling/global_pool.py
import tensorflow as tf
from tensorflow.keras import backend as K
from tensorflow.keras import initializers, regularizers
from tensorflow.keras.layers import Layer

from .scatter import segment_mean, segment_softmax


class AttnSumReadout(Layer):
    """Pools each graph to one vector: alpha = softmax over its nodes of X a, output sum_i alpha_i X_i."""

    def __init__(self, kernel_initializer="glorot_uniform", kernel_regularizer=None, **kwargs):
        super().__init__(**kwargs)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)

    def build(self, input_shape):
        if isinstance(input_shape, list) and len(input_shape) == 2:
            self.mode = "disjoint"
            width = input_shape[0][-1]
        else:
            self.mode = "single" if len(input_shape) == 2 else "batch"
            width = input_shape[-1]
        self.attn_kernel = self.add_weight(
            shape=(width, 1),
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer,
            name="attn_kernel",
        )
        self.built = True

    def call(self, inputs):
        if self.mode == "disjoint":
            nodes, graph = inputs
            if K.ndim(graph) == 2:
                graph = graph[:, 0]
        else:
            nodes = inputs
        logits = K.squeeze(K.dot(nodes, self.attn_kernel), -1)
        if self.mode == "single":
            weights = K.softmax(logits)
            return K.dot(weights[None, ...], nodes)
        if self.mode == "batch":
            weights = K.softmax(logits)
            return K.batch_dot(weights, nodes)
        weights = segment_softmax(logits, graph, K.shape(nodes)[0])
        return tf.math.segment_sum(weights[:, None] * nodes, graph)


class MeanReadout(Layer):
    def call(self, inputs):
        if isinstance(inputs, (list, tuple)):
            nodes, graph = inputs
            return segment_mean(nodes, graph)
        return K.mean(inputs, axis=-2)
