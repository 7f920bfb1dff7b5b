# case: t8a-09-causal
# modelled-on: skyzh/tiny-llm https://github.com/skyzh/tiny-llm/commit/0c1ae4bca39e0d73d0c1008b86af788e30fb7cf6
# label: buggy
# class: real-bug
# pattern: an MLX course's reference Qwen2 implementation: grouped-query attention builds its causal mask itself when passed mask="causal" (the model passes it whenever more than one token arrives), as 1 - tril(ones(L, S)) turned into -inf / 0 with where and added to the scores; the keys come from a KV cache's update_and_fetch, and the request module prefills long prompts in chunks of max_step tokens
# why: buggy (fixed in 0c1ae4b "fix attention mask; chunked prefill working now"): tril(ones(L, S)) is aligned top-left, so for a prefill chunk of L queries after S - L cached keys, query i sees keys 0..i only, i.e. the first tokens of the prompt instead of everything before it; the fix uses tril(ones(L, S), k=S - L) (bottom-right) and where(mask, 0, -inf)
# source: https://github.com/skyzh/tiny-llm https://github.com/skyzh/tiny-llm/commit/0c1ae4bca39e0d73d0c1008b86af788e30fb7cf6 src/tiny_llm_ref/attention.py
import mlx.core as mx


def softmax(x: mx.array, axis: int) -> mx.array:
    x = x - mx.max(x, axis=axis, keepdims=True)
    e = mx.exp(x)
    return e / mx.sum(e, axis=axis, keepdims=True)


def grouped_attention(query: mx.array, key: mx.array, value: mx.array, scale: float | None = None, mask: mx.array | str | None = None) -> mx.array:
    """query: (B, H_q, L, D); key/value: (B, H, S, D) with H_q a multiple of H."""
    factor = mx.rsqrt(query.shape[-1]) if scale is None else mx.array(scale)
    factor = factor.astype(query.dtype)
    out_shape = query.shape
    H_q, L, D = query.shape[-3:]
    H, S, _ = key.shape[-3:]
    rep = H_q // H
    query = query.reshape(-1, H, rep, L, D)
    key = key.reshape(-1, H, 1, S, D)
    value = value.reshape(-1, H, 1, S, D)

    scores = mx.matmul(query, key.swapaxes(-2, -1)) * factor
    if mask is not None:
        if mask == "causal":
            mask = 1 - mx.tril(mx.ones((L, S)))
            mask = mx.where(mask, mx.array(-mx.inf), mx.array(0))
            scores = scores + mask  # expect: ATT008
        else:
            scores = scores + mask.reshape(-1, H, rep, mask.shape[-2], mask.shape[-1])
    return mx.matmul(softmax(scores, axis=-1), value).reshape(out_shape)
