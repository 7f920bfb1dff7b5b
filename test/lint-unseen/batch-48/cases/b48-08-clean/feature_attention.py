# case: b48-08-clean
# modelled-on: anibalsilva1/TensorConFormer https://github.com/anibalsilva1/TensorConFormer/commit/f9c880c3539ad9e8242323e5a086a498ec30c9de
# label: correct
# class: clean
# pattern: Flax multi-head self-attention over the feature tokens of a tabular VAE (a folder: the attention helper in ops.py, the layer and encoder block here): one Dense produces 3*width, reshaped to (B, T, heads, -1) and transposed to (B, heads, T, 3*head_width) before being split into q, k, v; the helper contracts the last axis of q and k with an einsum, divides by sqrt(q.shape[-1]) and takes the softmax over the last axis
# why: correct: the split happens after the per-head reshape, so q.shape[-1] is the head width and the scale is 1/sqrt(d_head); the einsum '...qd,...kd->...qk' is q @ k^T without an explicit transpose; the logits are (B, heads, queries, keys) and the softmax runs over the keys; the tokens are the table's features, all present, so no mask is needed
# looks-like: ATT004, ATT005
# source: https://github.com/anibalsilva1/TensorConFormer https://github.com/anibalsilva1/TensorConFormer/commit/f9c880c3539ad9e8242323e5a086a498ec30c9de models/layers/multiAttnHead.py
import flax.linen as nn
import jax.numpy as jnp

from ops import dot_attention


class FeatureSelfAttention(nn.Module):
    width: int
    heads: int

    def setup(self):
        self.qkv = nn.Dense(3 * self.width, kernel_init=nn.initializers.xavier_uniform(),
                            bias_init=nn.initializers.zeros)
        if self.heads > 1:
            self.out = nn.Dense(self.width, kernel_init=nn.initializers.xavier_uniform(),
                                bias_init=nn.initializers.zeros)

    def __call__(self, x):
        b, t, _ = x.shape
        qkv = self.qkv(x).reshape(b, t, self.heads, -1).transpose(0, 2, 1, 3)   # (B, H, T, 3*dh)
        q, k, v = jnp.array_split(qkv, 3, axis=-1)
        values, weights = dot_attention(q, k, v)
        y = values.transpose(0, 2, 1, 3).reshape(b, t, self.width)
        if self.heads > 1:
            y = self.out(y)
        return y, weights


class FeatureEncoderBlock(nn.Module):
    width: int
    heads: int
    hidden: int
    rate: float

    @nn.compact
    def __call__(self, x, train: bool):
        attn, _ = FeatureSelfAttention(self.width, self.heads)(x)
        x = nn.LayerNorm()(x + nn.Dropout(self.rate)(attn, deterministic=not train))
        h = nn.Dense(self.hidden)(x)
        h = nn.relu(nn.Dropout(self.rate)(h, deterministic=not train))
        h = nn.Dense(self.width)(h)
        return nn.LayerNorm()(x + nn.Dropout(self.rate)(h, deterministic=not train))


class FeatureEncoder(nn.Module):
    width: int
    heads: int
    hidden: int
    depth: int
    rate: float = 0.1

    @nn.compact
    def __call__(self, tokens, train: bool = False):
        for _ in range(self.depth):
            tokens = FeatureEncoderBlock(self.width, self.heads, self.hidden, self.rate)(tokens, train)
        return tokens
