# case: t43dd-04-clean
# modelled-on: parmaramit1111/llm-from-scratch https://github.com/parmaramit1111/llm-from-scratch/commit/c146730f03d5361352ece025255f2e8175cdf496
# label: correct
# class: clean
# pattern: self-attention in plain Python lists (no NumPy, no torch): `_matmul`, `_transpose`, a max-shifted `_softmax` applied to each row of the scaled scores, and a backward pass: `dA = dO @ V^T`, `dV = A^T @ dO`, a per-row softmax backward `p * (g - sum(g * p))`, the score gradient divided by sqrt(d), `dQ = dS @ K` and `dK = dS^T @ Q`
# why: correct: each row of `scores = Q @ K^T` belongs to one query, so the row-wise softmax normalises over the keys; `_transpose(self.attention_weights)` times the output gradient is the value gradient and `_transpose(score_gradients)` times the queries the key gradient, the transposes the chain rule asks for; the forward divides by sqrt(attention_size), the width of q and k
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/parmaramit1111/llm-from-scratch https://github.com/parmaramit1111/llm-from-scratch/commit/c146730f03d5361352ece025255f2e8175cdf496 src/llm_from_scratch/core/attention.py
import math


class ListAttention:
    """Scaled dot-product self-attention on nested lists."""

    def __init__(self, n_in, width):
        self.width = width
        self.wq = [[0.1] * width for _ in range(n_in)]
        self.wk = [[0.1] * width for _ in range(n_in)]
        self.wv = [[0.1] * width for _ in range(n_in)]
        self.cache = {}

    @staticmethod
    def mm(a, b):
        return [[sum(a[r][i] * b[i][c] for i in range(len(b))) for c in range(len(b[0]))] for r in range(len(a))]

    @staticmethod
    def tr(m):
        return [[m[r][c] for r in range(len(m))] for c in range(len(m[0]))]

    @staticmethod
    def softmax_row(row):
        top = max(row)
        ex = [math.exp(v - top) for v in row]
        total = sum(ex)
        return [e / total for e in ex]

    @staticmethod
    def softmax_row_backward(probs, grads):
        dot = sum(g * p for g, p in zip(grads, probs))
        return [p * (g - dot) for p, g in zip(probs, grads)]

    def forward(self, xs):
        qs = self.mm(xs, self.wq)
        ks = self.mm(xs, self.wk)
        vs = self.mm(xs, self.wv)
        raw = self.mm(qs, self.tr(ks))
        root = math.sqrt(self.width)
        scaled = [[s / root for s in row] for row in raw]
        weights = [self.softmax_row(row) for row in scaled]
        self.cache = dict(xs=xs, qs=qs, ks=ks, vs=vs, weights=weights)
        return self.mm(weights, vs)

    def backward(self, d_out):
        c = self.cache
        d_weights = self.mm(d_out, self.tr(c["vs"]))
        d_values = self.mm(self.tr(c["weights"]), d_out)
        d_scaled = [self.softmax_row_backward(p, g) for p, g in zip(c["weights"], d_weights)]
        root = math.sqrt(self.width)
        d_scores = [[g / root for g in row] for row in d_scaled]
        d_queries = self.mm(d_scores, c["ks"])
        d_keys = self.mm(self.tr(d_scores), c["qs"])
        d_x = self.mm(d_queries, self.tr(self.wq))
        d_xk = self.mm(d_keys, self.tr(self.wk))
        d_xv = self.mm(d_values, self.tr(self.wv))
        return [[a + b + e for a, b, e in zip(r1, r2, r3)] for r1, r2, r3 in zip(d_x, d_xk, d_xv)]
