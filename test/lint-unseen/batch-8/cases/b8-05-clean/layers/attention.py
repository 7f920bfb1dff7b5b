# case: b8-05-clean
# modelled-on: Veeransh14/Transformer-From-Scratch https://github.com/Veeransh14/Transformer-From-Scratch/commit/c9c70c4ea82f570360e62189faa2643d884deb09
# label: correct
# class: clean
# pattern: a CuPy transformer (falling back to NumPy) with hand-written forward and backward passes: the model builds (B, T, T) 0/1 padding masks whose padded query rows are all 0 and a tril subsequent mask; the attention fills where(mask == 0, -inf, scores); the Softmax layer in another module subtracts the row max and passes its output through nan_to_num(nan=0)
# why: correct: padded query rows are entirely -inf, so the shifted exponentials are NaN there, but the softmax module maps NaN to 0, so those rows contribute zero weights (and zero gradients); every real query row keeps its real keys; the masks are 1 = attend and the fill is applied where they are 0
# looks-like: ATT002, ATT007
# source: https://github.com/Veeransh14/Transformer-From-Scratch https://github.com/Veeransh14/Transformer-From-Scratch/commit/c9c70c4ea82f570360e62189faa2643d884deb09 Transformers/CombinedLayers/multi_head_attention.py
try:
    import cupy as cp
except ImportError:
    import numpy as cp

from layers.softmax import RowSoftmax


class HeadsAttention:
    def __init__(self, d_model: int = 512, n_heads: int = 8, seed: int = 0):
        rng = cp.random.RandomState(seed)
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.scale = cp.sqrt(self.d_k)
        self.Wq = rng.randn(d_model, d_model).astype(cp.float32) / cp.sqrt(d_model)
        self.Wk = rng.randn(d_model, d_model).astype(cp.float32) / cp.sqrt(d_model)
        self.Wv = rng.randn(d_model, d_model).astype(cp.float32) / cp.sqrt(d_model)
        self.Wo = rng.randn(d_model, d_model).astype(cp.float32) / cp.sqrt(d_model)
        self.softmax = RowSoftmax()

    def split(self, x):
        B = x.shape[0]
        return x.reshape(B, -1, self.n_heads, self.d_k).transpose(0, 2, 1, 3)

    def forward(self, xq, xkv, mask=None):
        """xq: (B, Tq, D); xkv: (B, Tk, D); mask: (B, Tq, Tk) or (Tq, Tk), 1 = attend."""
        q, k, v = self.split(xq @ self.Wq), self.split(xkv @ self.Wk), self.split(xkv @ self.Wv)
        scores = q @ k.transpose(0, 1, 3, 2) / self.scale
        if mask is not None:
            m = cp.asarray(mask)
            m = m[:, cp.newaxis, ...] if m.ndim == 3 else m
            self.mask = m
            scores = cp.where(m == 0, float("-inf"), scores)
        self.weights = self.softmax.forward(scores)
        out = self.weights @ v
        B = out.shape[0]
        return out.transpose(0, 2, 1, 3).reshape(B, -1, self.n_heads * self.d_k) @ self.Wo


def padding_mask(ids, pad_id):
    """(B, T, T): 1 inside the top-left block of real tokens, 0 for every padded row and column."""
    B, T = ids.shape
    counts = (ids != pad_id).astype(int).sum(-1)
    mask = cp.zeros((B, T, T), cp.int8)
    for i in range(B):
        mask[i, : counts[i], : counts[i]] = 1
    return mask


def subsequent_mask(ids):
    T = ids.shape[1]
    return cp.tril(cp.ones((T, T)), k=0).astype(int)
