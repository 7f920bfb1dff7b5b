# case: b14-10-clean
# modelled-on: AFUFAFU-FAT/transformer-from-scratch https://github.com/AFUFAFU-FAT/transformer-from-scratch/commit/26a4aed52779e8f83ad25aaf97973e285d68657e
# label: correct
# class: clean
# pattern: a hand-written NumPy mini Transformer encoder (comments in Chinese walk through each step) on an unbatched (seq_len, d_model) sentence: a stable softmax helper over axis=-1, a single-head function computing Q @ K.T / np.sqrt(d_k) on 2-D matrices, and multi-head attention as a Python loop over h heads, each with its own (d_model, d_k) projections and d_k = d_model // h, concatenated and projected back
# why: correct: every Q, K and V here is a 2-D (seq_len, d_k) matrix, so K.T is the key transpose and Q.shape[-1] is the per-head width; the helper normalises each row of the (seq_len, seq_len) scores over the keys; what a naive linter could misread: ATT005 (.T on keys), ATT004 (a scale read from Q in a helper shared by all heads), ATT001 (a softmax helper with its own axis)
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/AFUFAFU-FAT/transformer-from-scratch https://github.com/AFUFAFU-FAT/transformer-from-scratch/commit/26a4aed52779e8f83ad25aaf97973e285d68657e mini_transformer.py
import numpy as np


def softmax(x):
    # softmax(z) == softmax(z - c): subtract the row max so every exponent is <= 0
    x = x - x.max(axis=-1, keepdims=True)
    e_x = np.exp(x)
    return e_x / e_x.sum(axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V):
    # Q, K: (seq_len, d_k); V: (seq_len, d_v)
    d_k = Q.shape[-1]
    scores = Q @ K.T / np.sqrt(d_k)  # (seq_len, seq_len)
    weights = softmax(scores)
    return weights @ V, weights


def multi_head_attention(x, h, d_model, rng):
    d_k = d_model // h
    WQ = [rng.standard_normal((d_model, d_k)) * 0.1 for _ in range(h)]
    WK = [rng.standard_normal((d_model, d_k)) * 0.1 for _ in range(h)]
    WV = [rng.standard_normal((d_model, d_k)) * 0.1 for _ in range(h)]
    WO = rng.standard_normal((h * d_k, d_model)) * 0.1
    heads = []
    for i in range(h):
        head_i, _ = scaled_dot_product_attention(x @ WQ[i], x @ WK[i], x @ WV[i])
        heads.append(head_i)
    return np.concatenate(heads, axis=-1) @ WO


def layer_norm(x, eps=1e-6):
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return (x - mean) / (std + eps)


def positional_encoding(seq_len, d_model):
    pos = np.arange(seq_len)[:, None]
    i = np.arange(d_model)[None, :]
    angle = pos / np.power(10000, (2 * (i // 2)) / d_model)
    return np.where(i % 2 == 0, np.sin(angle), np.cos(angle))


def encoder_block(x, h, d_model, d_ff, rng):
    x = layer_norm(x + multi_head_attention(x, h, d_model, rng))
    W1 = rng.standard_normal((d_model, d_ff)) * 0.1
    W2 = rng.standard_normal((d_ff, d_model)) * 0.1
    return layer_norm(x + np.maximum(0, x @ W1) @ W2)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    seq_len, d_model = 5, 16
    tokens = rng.standard_normal((seq_len, d_model)) + positional_encoding(seq_len, d_model)
    print(encoder_block(tokens, h=4, d_model=d_model, d_ff=32, rng=rng).shape)
