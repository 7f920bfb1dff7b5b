# case: b47-05-clean
# modelled-on: deep-diver/keras-diffusion-lab https://github.com/deep-diver/keras-diffusion-lab/commit/13ebb270a3d7732b5d715038b2ebe1d0f44e6ced
# label: correct
# class: clean
# pattern: Keras 3 (keras.ops, backend-agnostic) DDPM U-Net with single-head spatial self-attention: GroupNorm, a 1x1 conv producing q, k, v as channels-last maps, each flattened to (B, H*W, C); scores q @ transpose(k, (0, 2, 1)) divided by sqrt(C), softmax over the last axis, the weights times v reshaped back to (B, H, W, C) and added to the input through a 1x1 projection; the block is placed at chosen resolutions and in the bottleneck
# why: correct: with one head the key width is the full channel count C, so sqrt(C) is the right 1/sqrt(d); transpose(k, (0, 2, 1)) turns (B, N, C) into (B, C, N) so the product is (B, N, N) query-by-key, and softmax(axis=-1) normalises over the keys; no mask is needed for image positions
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/deep-diver/keras-diffusion-lab https://github.com/deep-diver/keras-diffusion-lab/commit/13ebb270a3d7732b5d715038b2ebe1d0f44e6ced src/diffusion_harness/base/models.py
import keras
import keras.ops as ops
from keras import layers


class FiLMResBlock(keras.layers.Layer):
    def __init__(self, width, **kwargs):
        super().__init__(**kwargs)
        self.width = width

    def build(self, input_shape):
        self.n1 = layers.GroupNormalization(8)
        self.c1 = layers.Conv2D(self.width, 3, padding="same")
        self.film = layers.Dense(self.width * 2)
        self.n2 = layers.GroupNormalization(8)
        self.c2 = layers.Conv2D(self.width, 3, padding="same")
        self.match = layers.Conv2D(self.width, 1) if input_shape[-1] != self.width else None

    def call(self, x, t):
        h = self.c1(ops.silu(self.n1(x)))
        gamma, beta = ops.split(self.film(t), 2, axis=-1)
        h = h * (1.0 + gamma[:, None, None, :]) + beta[:, None, None, :]
        h = self.c2(ops.silu(self.n2(h)))
        skip = x if self.match is None else self.match(x)
        return skip + h


class SpatialAttention(keras.layers.Layer):
    """One head over all H*W positions, residual."""

    def build(self, input_shape):
        self.c = input_shape[-1]
        self.gn = layers.GroupNormalization(8)
        self.to_qkv = layers.Conv2D(self.c * 3, 1, padding="same")
        self.out = layers.Conv2D(self.c, 1, padding="same")

    def call(self, x):
        b, hh, ww = ops.shape(x)[0], ops.shape(x)[1], ops.shape(x)[2]
        q, k, v = ops.split(self.to_qkv(self.gn(x)), 3, axis=-1)
        n = hh * ww
        q = ops.reshape(q, (b, n, self.c))
        k = ops.reshape(k, (b, n, self.c))
        v = ops.reshape(v, (b, n, self.c))
        logits = ops.matmul(q, ops.transpose(k, (0, 2, 1)))
        logits = logits / ops.sqrt(ops.cast(self.c, "float32"))
        w = ops.softmax(logits, axis=-1)
        y = ops.reshape(ops.matmul(w, v), (b, hh, ww, self.c))
        return x + self.out(y)


def middle(h, t_emb, width):
    h = FiLMResBlock(width)(h, t_emb)
    h = SpatialAttention()(h)
    return FiLMResBlock(width)(h, t_emb)


def level_blocks(h, t_emb, width, with_attention):
    for _ in range(2):
        h = FiLMResBlock(width)(h, t_emb)
    if with_attention:
        h = SpatialAttention()(h)
    return h
