# case: softmax-picogpt-numpy-2d
# modelled-on: jaymody/picoGPT https://github.com/jaymody/picoGPT/blob/main/gpt2.py
# label: correct
# pattern: GPT-2 in NumPy on unbatched 2-D (n_seq, d) arrays: a hand-written softmax over axis=-1, k.T on a 2-D array, an additive causal mask built from np.tri scaled by -1e10 in float32
# why: k.T is the right transpose for 2-D keys; the mask is 0 on and below the diagonal and -1e10 above; NumPy float32 holds -1e10
# looks-like: ATT001, ATT002, ATT005, ATT007
import numpy as np


def gelu(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))


def softmax(x):
    exp_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return exp_x / np.sum(exp_x, axis=-1, keepdims=True)


def linear(x, w, b):
    return x @ w + b


def attention(q, k, v, mask):  # [n_q, d], [n_k, d], [n_k, d_v], [n_q, n_k]
    return softmax(q @ k.T / np.sqrt(q.shape[-1]) + mask) @ v


def mha(x, c_attn, c_proj, n_head):  # [n_seq, n_embd]
    x = linear(x, **c_attn)  # [n_seq, 3 * n_embd]
    qkv = np.split(x, 3, axis=-1)
    qkv_heads = list(map(lambda t: np.split(t, n_head, axis=-1), qkv))  # 3 x n_head x [n_seq, hd]
    causal_mask = (1 - np.tri(x.shape[0], dtype=x.dtype)) * -1e10  # [n_seq, n_seq]
    out_heads = [attention(q, k, v, causal_mask) for q, k, v in zip(*qkv_heads)]
    x = np.hstack(out_heads)
    return linear(x, **c_proj)
