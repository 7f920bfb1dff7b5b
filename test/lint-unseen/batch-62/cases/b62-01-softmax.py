# case: b62-01-softmax
# modelled-on: danielegrattarola/spektral https://github.com/danielegrattarola/spektral/commit/d077e570e9161587b0dee06512cc349731769815
# label: buggy
# class: real-bug
# pattern: graph readout layers of a Keras graph-network library that work in three data modes: "single" (one graph, nodes (N, F)), "batch" (padded graphs, (B, N, F)) and "disjoint" (the graphs of a batch stacked into one node matrix (N_total, F) with a vector of graph ids); a node-attention sum pooling scores every node with a learned vector, squeezes the scores, takes one `K.softmax` of them for every mode, then sums the weighted nodes per graph (`tf.math.segment_sum` over the graph ids in disjoint mode)
# why: buggy: the layer's docstring says the softmax is applied across the nodes of a graph, and in disjoint mode the score vector holds the nodes of every graph of the batch, so the single softmax normalises over the whole batch: each graph's attention weights sum to its share of the batch instead of one, and graphs mix through the normaliser; the maintainer confirmed it (issue #302) and fixed it in commit 570cb91 by moving the softmax into the single and batch branches and using a segment softmax over the graph ids in disjoint mode
# source: https://github.com/danielegrattarola/spektral https://github.com/danielegrattarola/spektral/commit/570cb9197177866628f6dce987852e5688349bed spektral/layers/pooling/global_pool.py
import tensorflow as tf
from tensorflow.keras import backend as K
from tensorflow.keras import initializers
from tensorflow.keras.layers import Dense, Layer


class _Readout(Layer):
    """Base readout: detects the data mode from the input shapes."""

    def detect_mode(self, input_shape):
        if isinstance(input_shape, list) and len(input_shape) == 2:
            self.data_mode = "disjoint"
            return input_shape[0][-1]
        self.data_mode = "single" if len(input_shape) == 2 else "batch"
        return input_shape[-1]

    def split(self, inputs):
        if self.data_mode != "disjoint":
            return inputs, None
        x, graph_ids = inputs
        if K.ndim(graph_ids) == 2:
            graph_ids = graph_ids[:, 0]
        return x, graph_ids


class GatedSumReadout(_Readout):
    """Sigmoid-gated sum of projected node features (no softmax)."""

    def __init__(self, channels, **kwargs):
        super().__init__(**kwargs)
        self.channels = channels

    def build(self, input_shape):
        self.detect_mode(input_shape)
        self.project = Dense(self.channels, name="project")
        self.gate = Dense(self.channels, activation="sigmoid", name="gate")
        self.built = True

    def call(self, inputs):
        x, graph_ids = self.split(inputs)
        gated = self.project(x) * self.gate(x)
        if self.data_mode == "disjoint":
            return tf.math.segment_sum(gated, graph_ids)
        return K.sum(gated, axis=-2, keepdims=self.data_mode == "single")


class AttentionSumReadout(_Readout):
    """alpha = softmax(X a) over the nodes of a graph; output = sum_i alpha_i X_i."""

    def __init__(self, score_initializer="glorot_uniform", **kwargs):
        super().__init__(**kwargs)
        self.score_initializer = initializers.get(score_initializer)

    def build(self, input_shape):
        n_features = self.detect_mode(input_shape)
        self.score_vector = self.add_weight(
            shape=(n_features, 1),
            initializer=self.score_initializer,
            name="score_vector",
        )
        self.built = True

    def call(self, inputs):
        x, graph_ids = self.split(inputs)
        scores = K.squeeze(K.dot(x, self.score_vector), -1)
        alpha = K.softmax(scores)  # expect: ATT001
        if self.data_mode == "single":
            return K.dot(alpha[None, ...], x)
        if self.data_mode == "batch":
            return K.batch_dot(alpha, x)
        weighted = alpha[:, None] * x
        return tf.math.segment_sum(weighted, graph_ids)
