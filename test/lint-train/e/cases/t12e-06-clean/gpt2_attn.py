# case: t12e-06-clean
# modelled-on: alexziyuan/transformer-from-scratch https://github.com/alexziyuan/transformer-from-scratch/commit/a06deb22df4efb76fcae5f214748405c42432705
# label: correct
# class: clean
# pattern: a NumPy reference for a GPT-2 forward pass (to be ported to C++): an ops module holds a last-axis softmax, an additive causal mask (zeros with -inf written at np.triu_indices(T, k=1)) and unbatched attention scores = Q @ K.T / sqrt(d_k) plus the mask; the multi-head function splits a fused QKV projection with reshape(T, n_head, d_head).transpose(1, 0, 2) and calls the unbatched attention once per head with Q[h], K[h], V[h]
# why: correct: each call sees 2-D (T, d_head) arrays, so K.T is the key transpose and d_k = Q.shape[-1] is the head width; the additive mask is 0 on and below the diagonal and -inf strictly above, added to the scores, so every row keeps its diagonal; the transpose(1, 0, 2) moves heads first and is not a key transpose; what a naive linter could misread: ATT005 (K.T, a 3-axis transpose in the head split), ATT002 (an additive mask), ATT007 (-inf), ATT004 (the scale read off Q)
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/alexziyuan/transformer-from-scratch https://github.com/alexziyuan/transformer-from-scratch/commit/a06deb22df4efb76fcae5f214748405c42432705 python/ops.py
import numpy as np

from ops import attention, causal_mask


def multi_head_attention(x, c_attn_w, c_attn_b, c_proj_w, c_proj_b, n_head: int, mask=None):
    T, d_model = x.shape
    d_head = d_model // n_head
    qkv = np.matmul(x, c_attn_w) + c_attn_b  # [T, 3 * d_model]
    Q, K, V = np.split(qkv, 3, axis=-1)

    def split_heads(t):
        return t.reshape(T, n_head, d_head).transpose(1, 0, 2)  # [n_head, T, d_head]

    Q, K, V = split_heads(Q), split_heads(K), split_heads(V)
    outs, weights = [], []
    for h in range(n_head):
        out_h, w_h = attention(Q[h], K[h], V[h], mask)
        outs.append(out_h)
        weights.append(w_h)
    out = np.concatenate(outs, axis=-1)  # [T, d_model]
    return np.matmul(out, c_proj_w) + c_proj_b, np.stack(weights)


def gpt2_block_attention(x, params, n_head: int):
    return multi_head_attention(x, *params, n_head=n_head, mask=causal_mask(x.shape[0]))
