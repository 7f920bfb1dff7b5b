# case: b56-05-clean
# modelled-on: Adityakhalkar/build-a-tiny-gpt-from-scratch-with-numpy https://github.com/Adityakhalkar/build-a-tiny-gpt-from-scratch-with-numpy/commit/c7774e3dafdf9a848183975b217f16091c0b19ad
# label: correct
# class: clean
# pattern: a single-head decoder-only GPT written step by step in plain NumPy with hand-written backward passes: a boolean causal mask np.triu(ones, k=1), np.where(mask, -1e9, scores) before a max-subtracted softmax over axis -1, a forward that keeps Q, K, V, the weights and the scale in a cache dict, and backward steps that transpose K, V and the weights with swapaxes / transpose(0, 2, 1)
# why: correct: the mask is True above the diagonal, i.e. at the future keys, and np.where puts -1e9 exactly there (float64, so -1e9 removes them and every row keeps its diagonal); the scores are Q @ swapaxes(K, -1, -2), (batch, T, T), so the softmax's axis -1 is the key axis; the scale is 1/sqrt(Q.shape[-1]) and with one head that is the key width; in the backward pass the gradient of the scores goes through the same scale, dQ = dS @ K and dK = dS^T @ Q, dV = A^T @ dOut and dA = dOut @ V^T, which are the correct products for a (batch, T, d) layout, and the softmax backward needs no mask because the masked weights are already 0
# looks-like: ATT001, ATT002, ATT005, ATT007
# source: https://github.com/Adityakhalkar/build-a-tiny-gpt-from-scratch-with-numpy https://github.com/Adityakhalkar/build-a-tiny-gpt-from-scratch-with-numpy/commit/c7774e3dafdf9a848183975b217f16091c0b19ad model.py
import numpy as np


def softmax(x, axis=-1):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    ex = np.exp(shifted)
    return ex / np.sum(ex, axis=axis, keepdims=True)


def dense(x, W, b):
    return x @ W + b


def future_positions(T):
    """(T, T) boolean, True where key j lies after query i."""
    return np.triu(np.ones((T, T), dtype=bool), k=1)


def attend(Q, K, V, future):
    scale = 1.0 / np.sqrt(Q.shape[-1])
    scores = np.matmul(Q, np.swapaxes(K, -1, -2)) * scale
    if future is not None:
        scores = np.where(future, -1e9, scores)
    weights = softmax(scores, axis=-1)
    saved = {"Q": Q, "K": K, "V": V, "A": weights, "scale": scale}
    return np.matmul(weights, V), saved


def self_attention(x, p, future):
    Q = dense(x, p["q"]["W"], p["q"]["b"])
    K = dense(x, p["k"]["W"], p["k"]["b"])
    V = dense(x, p["v"]["W"], p["v"]["b"])
    mixed, saved = attend(Q, K, V, future)
    return dense(mixed, p["o"]["W"], p["o"]["b"]), {"x": x, "mixed": mixed, "attend": saved}


def softmax_grad(dA, A):
    inner = np.sum(dA * A, axis=-1, keepdims=True)
    return A * (dA - inner)


def attend_grad(dOut, saved):
    Q, K, V, A, scale = saved["Q"], saved["K"], saved["V"], saved["A"], saved["scale"]
    dV = np.matmul(np.swapaxes(A, -1, -2), dOut)
    dA = dOut @ V.transpose(0, 2, 1)
    dS = softmax_grad(dA, A) * scale
    dQ = np.matmul(dS, K)
    dK = np.matmul(dS.swapaxes(-1, -2), Q)
    return dQ, dK, dV


def dense_grad(dy, x, W):
    flat_x = x.reshape(-1, x.shape[-1])
    flat_dy = dy.reshape(-1, dy.shape[-1])
    return dy @ W.T, flat_x.T @ flat_dy, flat_dy.sum(axis=0)


def self_attention_grad(dOut, cache, p):
    dMixed, dWo, dbo = dense_grad(dOut, cache["mixed"], p["o"]["W"])
    dQ, dK, dV = attend_grad(dMixed, cache["attend"])
    grads, dx = {"o": {"W": dWo, "b": dbo}}, 0.0
    for name, d in (("q", dQ), ("k", dK), ("v", dV)):
        dxi, dW, db = dense_grad(d, cache["x"], p[name]["W"])
        grads[name] = {"W": dW, "b": db}
        dx = dx + dxi
    return dx, grads


def forward(ids, params):
    T = ids.shape[1]
    x = params["tok"][ids] + params["pos"][:T]
    future = future_positions(T)
    caches = []
    for block in params["blocks"]:
        h, c = self_attention(x, block["attn"], future)
        x = x + h
        caches.append(c)
    return x @ params["tok"].T, caches
