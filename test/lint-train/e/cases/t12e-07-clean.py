# case: t12e-07-clean
# modelled-on: chioujryu/NLP-ViT-tutorial https://github.com/chioujryu/NLP-ViT-tutorial/commit/2711a1f6bee30d7318cd81cd9e70a38e9f744386
# label: correct
# class: clean
# pattern: a NumPy tutorial of scaled dot-product attention: scores from np.einsum('bqd,bkd->bqk', Q, K) divided by sqrt(d_k), an optional 0/1 keep mask applied as a blend scores * mask - 1e9 * (1 - mask), a max-shifted softmax over the last axis, and the output as weights @ V on (batch, seq, d_k) arrays
# why: correct: the einsum contracts the feature axis of queries and keys (no explicit transpose needed) into (batch, query, key) scores, softmaxed over the key axis; the blend keeps the scores where the mask is 1 and writes -1e9 where it is 0 (NumPy float64, where -1e9 is finite and masks); the scale is sqrt of the key width; what a naive linter could misread: ATT006 (a 0/1 mask multiplied into the scores), ATT002 (1 - mask), ATT007 (-1e9), ATT005 (no transpose of K)
# looks-like: ATT002, ATT005, ATT006, ATT007
# source: https://github.com/chioujryu/NLP-ViT-tutorial https://github.com/chioujryu/NLP-ViT-tutorial/commit/2711a1f6bee30d7318cd81cd9e70a38e9f744386 5-1.Transformer/Attention.py
import numpy as np


class DotProductAttention:
    def __init__(self, d_k: int):
        self.d_k = d_k

    def forward(self, Q, K, V, mask=None):
        scores = np.einsum("bqd,bkd->bqk", Q, K)
        scores = scores / np.sqrt(self.d_k)
        if mask is not None:
            scores = scores * mask - 1e9 * (1 - mask)
        weights = self.softmax(scores)
        return np.matmul(weights, V), weights

    def softmax(self, x):
        e = np.exp(x - np.max(x, axis=-1, keepdims=True))
        return e / np.sum(e, axis=-1, keepdims=True)


if __name__ == "__main__":
    d_k = 64
    attn = DotProductAttention(d_k)
    Q = np.random.rand(1, 10, d_k)
    K = np.random.rand(1, 10, d_k)
    V = np.random.rand(1, 10, d_k)
    causal = np.tril(np.ones((10, 10)))[None]
    out, w = attn.forward(Q, K, V, causal)
    print(out.shape, w.sum(axis=-1))
