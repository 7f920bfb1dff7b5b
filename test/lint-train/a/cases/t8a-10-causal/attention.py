# case: t8a-10-causal
# modelled-on: skyzh/tiny-llm https://github.com/skyzh/tiny-llm/commit/0c1ae4bca39e0d73d0c1008b86af788e30fb7cf6
# label: correct
# class: fixed
# pattern: the same MLX reference Qwen2 attention after the fix: with mask="causal" it builds tril(ones(L, S), k=S - L), turns it into 0 where allowed and -inf elsewhere, and adds it to the scores; keys come from a KV cache and long prompts are prefilled in chunks
# why: correct: k=S - L shifts the diagonal so the mask is aligned bottom-right: query i of a chunk of L queries after S - L cached keys sees keys 0..S-L+i, which is causal for chunked prefill, full prefill (S == L) and one-token decoding (where the model passes no mask)
# looks-like: ATT002, ATT007, ATT008
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
            mask = mx.tril(mx.ones((L, S)), k=S - L)
            mask = mx.where(mask, mx.array(0), mx.array(-mx.inf))
            scores = scores + mask
        else:
            scores = scores + mask.reshape(-1, H, rep, mask.shape[-2], mask.shape[-1])
    return mx.matmul(softmax(scores, axis=-1), value).reshape(out_shape)
