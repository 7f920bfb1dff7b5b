# case: b55-10-clean
# modelled-on: ColumnBack/tinygpt-numpy https://github.com/ColumnBack/tinygpt-numpy/commit/860bd728cd2ae61af815858aeb536beb5c9f299c
# label: correct
# class: clean
# pattern: a NumPy-only tiny GPT trained with hand-written gradients: each head works on one sequence as 2-D arrays, scores Q @ K.T / sqrt(dh), a boolean np.triu(..., k=1) mask that is True on future positions and is applied with np.where(mask, -1e9, S), a row-wise softmax over axis=1, and a backward pass that zeroes the score gradients of the masked positions after the softmax
# why: correct: with one sequence per call the arrays are 2-D, so K.T is the key transpose and axis=1 of the (T, T) scores is the key axis; the mask is True where j > i and np.where puts -1e9 exactly there, leaving the past and the diagonal; -1e9 is safe in float64; the scale is the per-head width dh = d_model // n_heads; zeroing the gradient entries of masked positions in the backward pass is not a mask applied to the attention weights (their probabilities are already zero)
# looks-like: ATT001, ATT002, ATT005, ATT006, ATT007
# source: https://github.com/ColumnBack/tinygpt-numpy https://github.com/ColumnBack/tinygpt-numpy/commit/860bd728cd2ae61af815858aeb536beb5c9f299c tinygpt.py
import numpy as np


def softmax_rows(S):
    shifted = S - np.max(S, axis=1, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=1, keepdims=True)


def future_mask(T):
    # True where the key comes after the query
    return np.triu(np.ones((T, T), dtype=bool), k=1)


class TinyHeads:
    def __init__(self, d_model=32, n_heads=4, seed=0):
        assert d_model % n_heads == 0
        self.d, self.H, self.dh = d_model, n_heads, d_model // n_heads
        rng = np.random.default_rng(seed)
        init = lambda *shape: rng.normal(0.0, 1.0 / np.sqrt(self.d), size=shape)
        self.WQ = [init(self.d, self.dh) for _ in range(self.H)]
        self.WK = [init(self.d, self.dh) for _ in range(self.H)]
        self.WV = [init(self.d, self.dh) for _ in range(self.H)]
        self.WO = init(self.d, self.d)

    def head_forward(self, X, h):
        Q, K, V = X @ self.WQ[h], X @ self.WK[h], X @ self.WV[h]
        S = Q @ K.T / np.sqrt(self.dh)
        hidden = future_mask(X.shape[0])
        A = softmax_rows(np.where(hidden, -1e9, S))
        return A @ V, (X, Q, K, V, A, hidden)

    def head_backward(self, GO, cache, h):
        X, Q, K, V, A, hidden = cache
        GA = GO @ V.T
        GV = A.T @ GO
        # softmax backward, row by row
        GS = A * (GA - np.sum(GA * A, axis=1, keepdims=True))
        GS[hidden] = 0.0
        root = np.sqrt(self.dh)
        GQ = GS @ K / root
        GK = GS.T @ Q / root
        GX = GQ @ self.WQ[h].T + GK @ self.WK[h].T + GV @ self.WV[h].T
        grads = {"WQ": X.T @ GQ, "WK": X.T @ GK, "WV": X.T @ GV}
        return GX, grads

    def forward(self, X):
        outs, caches = [], []
        for h in range(self.H):
            O, c = self.head_forward(X, h)
            outs.append(O)
            caches.append(c)
        concat = np.concatenate(outs, axis=1)
        return concat @ self.WO, (concat, caches)

    def backward(self, GY, cache):
        concat, caches = cache
        GWO = concat.T @ GY
        Gconcat = GY @ self.WO.T
        GX = np.zeros_like(caches[0][0])
        grads = []
        for h in range(self.H):
            part = Gconcat[:, h * self.dh:(h + 1) * self.dh]
            gx, g = self.head_backward(part, caches[h], h)
            GX += gx
            grads.append(g)
        return GX, GWO, grads
