# case: t44ff-09-clean
# modelled-on: kimxinw/kvcache https://github.com/kimxinw/kvcache/commit/f2814b96cebb470531ed8dc8122ccb517cadd235
# label: correct
# class: clean
# pattern: a NumPy reference for a C++ single-token decode kernel: one query per head (H, D) against S cached keys and values (H, S, D), `einsum('hd,hsd->hs')` divided by sqrt(D), a max-subtracted softmax written out by hand over the last axis, `einsum('hs,hsd->hd')`, and the tensors dumped as raw float32 for the kernel's test; no causal mask
# why: correct: a decode step's one query is the newest position, so every cached key (all S of them) lies in its past and no causal mask is needed; the scores (H, S) are normalised over the S keys (last axis), the axis the value einsum sums over; the scale is 1/sqrt(head_dim)
# looks-like: ATT001, ATT003, ATT008
# source: https://github.com/kimxinw/kvcache https://github.com/kimxinw/kvcache/commit/f2814b96cebb470531ed8dc8122ccb517cadd235 ref/ref_attn.py
import os

import numpy as np

HEADS, CACHED, HEAD_DIM = 8, 128, 64


def decode_reference(q, keys, values):
    """q: (H, D) for the one new token; keys, values: (H, S, D) already in the cache."""
    score = np.einsum("hd,hsd->hs", q, keys) / np.sqrt(q.shape[-1])
    score -= score.max(-1, keepdims=True)
    p = np.exp(score)
    p /= p.sum(-1, keepdims=True)
    return np.einsum("hs,hsd->hd", p, values).astype(np.float32)


def dump_case(out_dir="data", seed=0):
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((HEADS, HEAD_DIM)).astype(np.float32)
    K = rng.standard_normal((HEADS, CACHED, HEAD_DIM)).astype(np.float32)
    V = rng.standard_normal((HEADS, CACHED, HEAD_DIM)).astype(np.float32)
    out = decode_reference(q, K, V)
    os.makedirs(out_dir, exist_ok=True)
    for name, arr in (("q", q), ("K", K), ("V", V), ("out_ref", out)):
        arr.tofile(os.path.join(out_dir, f"{name}.bin"))
    return out


if __name__ == "__main__":
    dump_case()
    print(f"dumped H={HEADS} S={CACHED} D={HEAD_DIM}")
