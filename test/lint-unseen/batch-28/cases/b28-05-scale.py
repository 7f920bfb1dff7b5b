# case: b28-05-scale
# modelled-on: Fangzhou-Code/Learn_AI https://github.com/Fangzhou-Code/Learn_AI/commit/5d92ac48fd6b614084ed712bbce74526d202d6da
# label: buggy
# class: real-bug
# pattern: a self-study repository's NumPy multi-head self-attention: (L, 768) queries, keys and values reshaped to (L, 8, 96) and transposed to (8, L, 96), scores = Query @ transpose(Key, [0, 2, 1]) per head, a hand-written softmax exp(z) / sum(exp(z), axis=-1) over the keys, out = scores @ Value, heads merged back to (L, 768)
# why: buggy: the per-head scores are never divided by sqrt(96) (nor is the query scaled) before the softmax, so this is dot-product attention without the 1/sqrt(d_k) of the scaled dot-product attention it implements: with 96-wide heads the logits' variance grows with d_k and the softmax saturates. The softmax axis (-1, the keys) and the key transpose are right. No fixed version exists
# source: https://github.com/Fangzhou-Code/Learn_AI https://github.com/Fangzhou-Code/Learn_AI/commit/5d92ac48fd6b614084ed712bbce74526d202d6da 第四阶段：大模型/multi-head_self_attention.py
import numpy as np


def softmax_rows(z):
    e = np.exp(z)
    return e / np.expand_dims(np.sum(e, axis=-1), -1)


seq_len = 3
n_heads = 8
d_model = 768
head_dim = d_model // n_heads

Q = np.random.rand(seq_len, d_model)
K = np.random.rand(seq_len, d_model)
V = np.random.rand(seq_len, d_model)

Q = np.reshape(Q, [seq_len, n_heads, head_dim])
K = np.reshape(K, [seq_len, n_heads, head_dim])
V = np.reshape(V, [seq_len, n_heads, head_dim])

Q = np.transpose(Q, [1, 0, 2])
K = np.transpose(K, [1, 0, 2])
V = np.transpose(V, [1, 0, 2])

scores = Q @ np.transpose(K, [0, 2, 1])
print(np.shape(scores))
scores = softmax_rows(scores)  # expect: ATT003
out = scores @ V
out = np.transpose(out, [1, 0, 2])
out = np.reshape(out, [seq_len, d_model])
print(np.shape(out))
