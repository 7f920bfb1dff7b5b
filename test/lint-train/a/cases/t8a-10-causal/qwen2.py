import mlx.core as mx

from attention import grouped_attention


class RingKvCache:
    """Per-layer cache of keys/values, (B, H, S, D), returned in time order."""

    def __init__(self):
        self.keys = None
        self.values = None

    def update_and_fetch(self, key: mx.array, value: mx.array):
        if self.keys is None:
            self.keys, self.values = key, value
        else:
            self.keys = mx.concatenate([self.keys, key], axis=2)
            self.values = mx.concatenate([self.values, value], axis=2)
        return self.keys, self.values


class Qwen2Attention:
    def __init__(self, wq, wk, wv, wo, num_heads: int, num_kv_heads: int, rope):
        self.wq, self.wk, self.wv, self.wo = wq, wk, wv, wo
        self.num_heads, self.num_kv_heads = num_heads, num_kv_heads
        self.head_dim = wq.shape[0] // num_heads
        self.scale = self.head_dim ** -0.5
        self.rope = rope

    def __call__(self, x: mx.array, offset: int, cache: RingKvCache, mask=None) -> mx.array:
        B, L, _ = x.shape
        q = (x @ self.wq.T).reshape(B, L, self.num_heads, self.head_dim)
        k = (x @ self.wk.T).reshape(B, L, self.num_kv_heads, self.head_dim)
        v = (x @ self.wv.T).reshape(B, L, self.num_kv_heads, self.head_dim)
        q = self.rope(q, offset=slice(offset, offset + L)).transpose(0, 2, 1, 3)
        k = self.rope(k, offset=slice(offset, offset + L)).transpose(0, 2, 1, 3)
        v = v.transpose(0, 2, 1, 3)
        k, v = cache.update_and_fetch(k, v)
        out = grouped_attention(q.astype(mx.float32), k.astype(mx.float32), v.astype(mx.float32), scale=self.scale, mask=mask)
        return out.astype(x.dtype).transpose(0, 2, 1, 3).reshape(B, L, -1) @ self.wo.T


class TinyQwen2:
    def __init__(self, embed, layers, norm, lm_head):
        self.embed, self.layers, self.norm, self.lm_head = embed, layers, norm, lm_head

    def __call__(self, tokens: mx.array, offset: int, caches: list[RingKvCache]) -> mx.array:
        h = self.embed[tokens]
        for layer, cache in zip(self.layers, caches):
            h = h + layer(h, offset, cache, mask="causal" if h.shape[1] > 1 else None)
        return self.norm(h) @ self.lm_head.T


def chunked_prefill(model: TinyQwen2, tokens: mx.array, caches: list[RingKvCache], max_step: int = 64):
    """Prefill a long prompt max_step tokens at a time, then return the first generated token."""
    offset = 0
    logits = None
    while offset < tokens.size:
        n = min(max_step, tokens.size - offset)
        logits = model(tokens[offset : offset + n][None], offset, caches)
        offset += n
    return mx.argmax(logits[:, -1, :], axis=-1), offset
