# case: b64-06-clean
# modelled-on: LUMII-Syslab/DiffusionSAT https://github.com/LUMII-Syslab/DiffusionSAT/commit/07fff74ac19ff1cefb6a869279a8694b6eed5433
# label: correct
# class: clean
# pattern: graph attention of a neural SAT solver in TensorFlow (a folder: `graph.py` builds the clause-literal incidence of a CNF formula as a `tf.sparse.SparseTensor` of ones and its transpose; `attention.py` scores every query node against every memory node with a dense q k^T / sqrt(hidden), multiplies the dense scores by the sparse adjacency, applies `tf.sparse.softmax` and multiplies the sparse weights with the values; a message-passing step lets clauses attend to their literals and literals to their clauses)
# why: correct: multiplying the dense scores by the sparse adjacency keeps only the entries that exist in the graph (a sparse result whose values are the scores, since the adjacency values are ones), and `tf.sparse.softmax` normalises each row over its stored entries only, so every node attends to exactly its neighbours and non-neighbours get no weight (they are absent, not zero-valued); it is not a 0/1 mask added or multiplied into dense scores before a dense softmax; the single-head scale is 1/sqrt(hidden), the width of q and k
# looks-like: ATT001, ATT002, ATT004, ATT006
# source: https://github.com/LUMII-Syslab/DiffusionSAT https://github.com/LUMII-Syslab/DiffusionSAT/commit/07fff74ac19ff1cefb6a869279a8694b6eed5433 layers/attention.py
import tensorflow as tf

from satnet.graph import literal_clause_adjacency


class NeighbourAttention(tf.keras.layers.Layer):
    """Scaled dot-product attention restricted to graph neighbours by a sparse adjacency."""

    def __init__(self, hidden, out_dim, **kwargs):
        super().__init__(**kwargs)
        self.hidden = hidden
        act = tf.nn.gelu
        self.to_q, self.to_k = tf.keras.layers.Dense(hidden, act), tf.keras.layers.Dense(hidden, act)
        self.to_v = tf.keras.layers.Dense(out_dim, act)

    def call(self, nodes, memory, adjacency):
        # nodes: [n, f1]; memory: [m, f2]; adjacency: SparseTensor with dense shape [n, m]
        logits = tf.matmul(self.to_q(nodes), self.to_k(memory), transpose_b=True)
        logits = logits / tf.sqrt(tf.cast(self.hidden, tf.float32))  # [n, m], dense
        neighbour_logits = adjacency * logits  # sparse: only the edges of the graph
        weights = tf.sparse.softmax(neighbour_logits)  # per row, over the stored edges
        return tf.sparse.sparse_dense_matmul(weights, self.to_v(memory))  # [n, out_dim]


class ClauseLiteralStep(tf.keras.layers.Layer):
    def __init__(self, width, **kwargs):
        super().__init__(**kwargs)
        self.clause_reads = NeighbourAttention(width, width)
        self.literal_reads = NeighbourAttention(width, width)
        self.clause_norm = tf.keras.layers.LayerNormalization()
        self.literal_norm = tf.keras.layers.LayerNormalization()

    def call(self, literals, clauses, clause_lit_adj):
        clauses = self.clause_norm(clauses + self.clause_reads(clauses, literals, clause_lit_adj))
        lit_clause_adj = literal_clause_adjacency(clause_lit_adj)
        literals = self.literal_norm(literals + self.literal_reads(literals, clauses, lit_clause_adj))
        return literals, clauses
