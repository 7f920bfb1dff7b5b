import mlx.core as mx
import mlx.nn as nn


def create_causal_mask(N, offset=0):
    rinds = mx.arange(offset + N)
    linds = mx.arange(offset, offset + N) if offset else rinds
    return linds[:, None] < rinds[None]


class Attention(nn.Module):
    def __init__(self, dims, heads):
        super().__init__()
        self.heads = heads
        self.scale = (dims // heads) ** -0.5
        self.qkv = nn.Linear(dims, 3 * dims)

    def __call__(self, x, cache=None):
        B, L, D = x.shape
        q, k, v = mx.split(self.qkv(x), 3, axis=-1)
        q, k, v = (t.reshape(B, L, self.heads, -1).transpose(0, 2, 1, 3) for t in (q, k, v))
        offset = 0
        if cache is not None:
            offset = cache[0].shape[2]
            k = mx.concatenate([cache[0], k], axis=2)
            v = mx.concatenate([cache[1], v], axis=2)
        mask = None
        if L > 1:
            mask = create_causal_mask(L, offset) * -1e9
        out = mx.fast.scaled_dot_product_attention(q, k, v, scale=self.scale, mask=mask)
        return out.transpose(0, 2, 1, 3).reshape(B, L, D), (k, v)
