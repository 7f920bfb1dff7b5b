# case: b6-33-clean
# modelled-on: h-livv/transformer-numpy https://github.com/h-livv/transformer-numpy/commit/73f5e48b1c5dc377c2c0f6d8ac5713564fcc312e
# label: correct
# class: clean
# pattern: a NumPy single-head causal self-attention in column layout (each token is a COLUMN): an embedder module returns X of shape (embed_dim, n); Q = Wq @ X, K = Wk @ X, V = Wv @ X are (reduced_dim, n); scores Q.T @ K / sqrt(reduced_dim) are (n, n) with queries as rows; the upper triangle (k=1) is set to -inf; a hand-written softmax over axis=1; the output V @ softmax.T is (reduced_dim, n) again
# why: correct: in column layout the transpose belongs on the queries, Q.T @ K gives q_i . k_j at (i, j); axis=1 is the key axis of that matrix, the triangle above the diagonal is the future; V @ A.T puts sum_j A[i, j] v_j in column i; reduced_dim is the key width
# looks-like: ATT001, ATT002, ATT005, ATT006
# source: https://github.com/h-livv/transformer-numpy https://github.com/h-livv/transformer-numpy/commit/73f5e48b1c5dc377c2c0f6d8ac5713564fcc312e src/attention.py
import numpy as np


class Attention:
    def __init__(self, embedded_matrix, embed_dim, reduced_dim):
        self.X = embedded_matrix  # (embed_dim, n): one column per token
        self.embed_dim = embed_dim
        self.reduced_dim = reduced_dim

    def create_matrices(self):
        self.Wq = np.random.randn(self.reduced_dim, self.embed_dim)
        self.Wk = np.random.randn(self.reduced_dim, self.embed_dim)
        self.Wv = np.random.randn(self.reduced_dim, self.embed_dim)
        self.Wo = np.random.randn(self.embed_dim, self.reduced_dim)

    def create_vectors(self):
        self.Q = self.Wq @ self.X  # (reduced_dim, n)
        self.K = self.Wk @ self.X
        self.V = self.Wv @ self.X

    def dot_product(self):
        self.dot = (self.Q.T @ self.K) / np.sqrt(self.reduced_dim)  # (n, n), rows = queries

    def softmax(self):
        sequence_length = self.dot.shape[0]
        upper_indices = np.triu_indices(sequence_length, k=1)
        masked_dot = self.dot.copy()
        masked_dot[upper_indices] = -np.inf
        self.exp_arr = np.exp(masked_dot - np.max(masked_dot, axis=1, keepdims=True))
        self.softmax_arr = self.exp_arr / np.sum(self.exp_arr, axis=1, keepdims=True)
        return self.softmax_arr

    def aggregate_values(self):
        self.Y = self.V @ (self.softmax_arr.T)  # (reduced_dim, n)
        return self.Y

    def project_output(self):
        return self.Wo @ self.Y  # (embed_dim, n)
