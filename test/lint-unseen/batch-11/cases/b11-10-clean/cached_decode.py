# case: b11-10-clean
# modelled-on: weihuaguo270-ops/attention-from-scratch https://github.com/weihuaguo270-ops/attention-from-scratch/commit/6f2bce04bed4c684640515905263de1333bf0393
# label: correct
# class: clean
# pattern: a teaching simulation of a KV cache: one query row (1, d_k) per decoding step attends to the cached keys and values, which grow by torch.cat along dim 0; scores Q @ K.T / d_k ** 0.5 on unbatched 2-D tensors, softmax from a helper module (last axis by default), no causal mask; the no-cache branch recomputes every key for the same single query
# why: correct: with one new query per step the cache holds only past and current tokens, so there is nothing in the future to mask and no is_causal is needed; Q and K are 2-D, so K.T swaps tokens and features; the helper's default dim=-1 is the key axis of the (1, cached) scores; what a naive linter could misread: ATT008 (attention over a growing KV cache with no causal mask), ATT005 (K.T), ATT001 (softmax through a helper with a default axis)
# looks-like: ATT001, ATT005, ATT008
# source: https://github.com/weihuaguo270-ops/attention-from-scratch https://github.com/weihuaguo270-ops/attention-from-scratch/commit/6f2bce04bed4c684640515905263de1333bf0393 pytorch/kv_cache.py
import torch

from helpers import softmax


def attend_with_cache(Q, K, V, K_cache=None, V_cache=None):
    if K_cache is not None:
        K = torch.cat([K_cache, K], dim=0)
        V = torch.cat([V_cache, V], dim=0)
    d_k = Q.shape[-1]
    scores = Q @ K.T / (d_k**0.5)  # (1, cached)
    weights = softmax(scores)
    return weights @ V, K, V


def simulate(num_steps, use_cache=True, d_k=4):
    torch.manual_seed(42)
    Q = torch.randn(1, d_k)
    K_cache, V_cache = None, None
    computed = 0
    for step in range(num_steps):
        if use_cache:
            k_new, v_new = torch.randn(1, d_k), torch.randn(1, d_k)
            _, K_cache, V_cache = attend_with_cache(Q, k_new, v_new, K_cache, V_cache)
            computed += 1
        else:
            all_k, all_v = torch.randn(step + 2, d_k), torch.randn(step + 2, d_k)
            attend_with_cache(Q, all_k, all_v)
            computed += step + 2
        Q = torch.randn(1, d_k)  # the next token's query
    return computed


if __name__ == "__main__":
    print(simulate(5, use_cache=True), simulate(5, use_cache=False))
