# case: b41-06-clean
# modelled-on: ikunabel/realchords-pytorch https://github.com/ikunabel/realchords-pytorch/commit/0f8baefb88bfc62b59741379981653cf584000a4
# label: correct
# class: clean
# pattern: MLX re-implementation of a decoder-only music model for on-device inference (a folder: the MLX decoder with its KV cache, and the NumPy sampling loop): queries and keys are L2-normalised per head with learned gains and the scores multiplied by a fixed qk-norm scale of 10 instead of 1/sqrt(d); a per-layer cache object concatenates new keys along axis 2 and keeps a running offset used for the rotary positions; the causal mask compares absolute query positions (total_kv - q_len ... total_kv - 1) with key positions and fills -1e9 with mx.where before an fp32 softmax over the last axis
# why: correct: with unit-length q and k the dot products are cosines in [-1, 1], so the learned-style constant 10 (qk-norm attention) is the intended temperature and 1/sqrt(d) would flatten them; the query positions start at total_kv - q_len, i.e. the mask is bottom-right aligned, right for the prompt (empty cache, square) and for one-token steps (all keys visible); -1e9 in the fp32 scores masks completely; every query sees its own key
# looks-like: ATT003, ATT004, ATT005, ATT007, ATT008
# source: https://github.com/ikunabel/realchords-pytorch https://github.com/ikunabel/realchords-pytorch/commit/0f8baefb88bfc62b59741379981653cf584000a4 realchords/realjam/mlx_models/decoder.py
import mlx.core as mx
import mlx.nn as nn


def unit(x, eps=1e-12):
    return x / mx.maximum(mx.sqrt(mx.sum(x * x, axis=-1, keepdims=True)), eps)


def rotate_pairs(x, angles):
    span = angles.shape[-1]
    head, tail = x[..., :span], x[..., span:]
    paired = head.reshape(*head.shape[:-1], -1, 2)
    turned = mx.stack([-paired[..., 1], paired[..., 0]], axis=-1).reshape(head.shape)
    return mx.concatenate([head * mx.cos(angles) + turned * mx.sin(angles), tail], axis=-1)


class LayerCache:
    def __init__(self, depth):
        self.keys, self.values, self.offset = [None] * depth, [None] * depth, 0

    def extend(self, layer, k, v):
        if self.keys[layer] is not None:
            k = mx.concatenate([self.keys[layer], k], axis=2)
            v = mx.concatenate([self.values[layer], v], axis=2)
        self.keys[layer], self.values[layer] = k, v
        return k, v


class NormedSelfAttention(nn.Module):
    def __init__(self, dim, heads, head_dim, temperature=10.0):
        super().__init__()
        self.heads, self.head_dim, self.temperature = heads, head_dim, temperature
        self.wq = nn.Linear(dim, heads * head_dim, bias=False)
        self.wk = nn.Linear(dim, heads * head_dim, bias=False)
        self.wv = nn.Linear(dim, heads * head_dim, bias=False)
        self.wo = nn.Linear(heads * head_dim, dim, bias=False)
        self.q_gain = mx.ones((heads, 1, head_dim))
        self.k_gain = mx.ones((heads, 1, head_dim))

    def __call__(self, x, angles, cache=None, layer=0):
        b, n, _ = x.shape
        split = lambda t: t.reshape(b, n, self.heads, self.head_dim).transpose(0, 2, 1, 3)
        q = rotate_pairs(unit(split(self.wq(x))) * self.q_gain, angles)
        k = rotate_pairs(unit(split(self.wk(x))) * self.k_gain, angles)
        v = split(self.wv(x))
        if cache is not None:
            k, v = cache.extend(layer, k, v)
        total = k.shape[2]
        scores = mx.matmul(q, k.transpose(0, 1, 3, 2)) * self.temperature
        q_pos = mx.arange(total - n, total)
        allowed = mx.arange(total)[None, :] <= q_pos[:, None]
        scores = mx.where(allowed[None, None], scores, mx.full(scores.shape, -1e9, dtype=scores.dtype))
        weights = mx.softmax(scores.astype(mx.float32), axis=-1)
        out = mx.matmul(weights.astype(v.dtype), v).transpose(0, 2, 1, 3).reshape(b, n, -1)
        return self.wo(out)


class Decoder(nn.Module):
    def __init__(self, vocab, dim=256, depth=4, heads=8, rope_dim=16):
        super().__init__()
        self.depth, self.rope_dim = depth, rope_dim
        self.embed = nn.Embedding(vocab, dim)
        self.attn = [NormedSelfAttention(dim, heads, dim // heads) for _ in range(depth)]
        self.mlp = [nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim)) for _ in range(depth)]
        self.norm1 = [nn.RMSNorm(dim) for _ in range(depth)]
        self.norm2 = [nn.RMSNorm(dim) for _ in range(depth)]
        self.to_logits = nn.Linear(dim, vocab, bias=False)

    def new_cache(self):
        return LayerCache(self.depth)

    def __call__(self, ids, cache=None):
        n = ids.shape[1]
        start = 0 if cache is None else cache.offset
        inv = 1.0 / 10000.0 ** (mx.arange(0, self.rope_dim, 2) / self.rope_dim)
        angles = mx.repeat(mx.arange(start, start + n)[:, None] * inv[None, :], 2, axis=-1)
        h = self.embed(ids)
        for i in range(self.depth):
            h = h + self.attn[i](self.norm1[i](h), angles, cache=cache, layer=i)
            h = h + self.mlp[i](self.norm2[i](h))
        if cache is not None:
            cache.offset += n
        return self.to_logits(h)
