# case: t34aa-12-clean
# modelled-on: jackd/keras-retnet https://github.com/jackd/keras-retnet/commit/319d1bb3a8ca1b68fa32dd488536b05a695c3180
# label: correct
# class: clean
# pattern: a Keras-Core multi-scale retention layer (RetNet) whose JAX backend lives in another module: keys divided by `math.sqrt(D_k)` (the full key width, not the per-head width d_k = D_k // H), q and k reshaped to (B, T, H, d_k), retention per head computed under two vmaps as `query @ keys.T` on unbatched (T, d_k) arrays times a causal decay matrix built with `jnp.where(diff >= 0, gamma ** diff, 0)`, rows rescaled by `max(|row sum|, 1)`, no softmax; the output normalised by a parameter-free LayerNormalization over each head's d_v features before the swish gate; a one-step recurrent form for decoding
# why: correct: with no softmax, the scale of q.k only multiplies each row of the retention by a positive constant (the row rescaling either cancels it or passes it through), and the per-head LayerNormalization that follows removes any positive constant, so dividing k by sqrt(D_k) instead of sqrt(d_k) does not change the output (up to the LayerNorm epsilon); `keys.T` is applied to a single head's (T, d_k) keys inside vmap, which is K^T; the decay matrix is the causal mask (0 above the diagonal), multiplied in because nothing is normalised by a softmax; the rotation applied to q and k uses angles that do not depend on the position, so it cancels in q.k (a missing positional rotation, outside the rules' classes; the decay still orders positions)
# looks-like: ATT003, ATT004, ATT005, ATT006
# source: https://github.com/jackd/keras-retnet https://github.com/jackd/keras-retnet/commit/319d1bb3a8ca1b68fa32dd488536b05a695c3180 keras_retnet/layers/multi_scale_retention.py
import math

import keras_core as keras
from keras_core import ops

from kretnet import jax_retention


def _rotate_every_two(x):
    x1 = x[..., ::2]
    x2 = x[..., 1::2]
    x = ops.stack((-x2, x1), axis=-1)
    shape = [-1 if d is None else d for d in x.shape[:-2]]
    return ops.reshape(x, (*shape, x.shape[-2] * x.shape[-1]))


def _theta_shift(x, sin, cos):
    return (x * cos) + (_rotate_every_two(x) * sin)


def _dense(units, name, activation=None):
    return keras.layers.Dense(
        units,
        name=name,
        activation=activation,
        kernel_initializer=keras.initializers.VarianceScaling(mode="fan_avg", distribution="uniform", scale=2**-2.5),
    )


class MultiScaleRetention(keras.layers.Layer):
    def __init__(self, num_heads: int, value_factor: int = 2, gate_activation="swish", **kwargs):
        super().__init__(**kwargs)
        self.num_heads = num_heads
        self.value_factor = value_factor
        self.gate_activation = keras.activations.get(gate_activation)

    def build(self, input_shape):
        key_dim = input_shape[-1]
        assert key_dim % (self.num_heads * 2) == 0, (key_dim, self.num_heads)
        value_dim = key_dim * self.value_factor
        self.query_dense = _dense(key_dim, "query")
        self.key_dense = _dense(key_dim, "key")
        self.value_dense = _dense(value_dim, "value")
        self.gate_dense = _dense(value_dim, "gate", activation=self.gate_activation)
        self.output_dense = keras.layers.Dense(key_dim, kernel_initializer="glorot_uniform", name="output")
        self.group_norm = keras.layers.LayerNormalization(epsilon=1e-6, center=False, scale=False)
        super().build(input_shape)

    def _retention_args(self, inputs):
        q = self.query_dense(inputs)
        k = self.key_dense(inputs)
        v = self.value_dense(inputs)
        shape = ops.shape(inputs)
        B, T = shape[0], shape[1]
        D_k = inputs.shape[2]
        D_v = D_k * self.value_factor
        H = self.num_heads
        d_k = D_k // H
        d_v = D_v // H
        k = k / math.sqrt(D_k)
        q = ops.reshape(q, (B, T, H, d_k))
        k = ops.reshape(k, (B, T, H, d_k))
        angle = 1.0 / (10000 ** ops.linspace(0, 1, d_k // 2, dtype=q.dtype))
        angle = ops.reshape(ops.tile(ops.expand_dims(angle, 1), (1, 2)), (-1,))
        q = _theta_shift(q, ops.sin(angle), ops.cos(angle))
        k = _theta_shift(k, ops.sin(angle), ops.cos(angle))
        gamma = 1 - 2 ** (-5 - ops.arange(H, dtype=self.dtype))
        v = ops.reshape(v, (B, T, H, d_v))
        return q, k, v, gamma, B, T, D_v

    def _finalize(self, inputs, out, B, T, D_v):
        out = self.group_norm(out)  # over each head's d_v features
        out = ops.reshape(out, (B, T, D_v))
        return self.output_dense(out * self.gate_dense(inputs))

    def call(self, inputs):
        q, k, v, gamma, B, T, D_v = self._retention_args(inputs)
        out = jax_retention.multi_head_retention(q, k, v, gamma)
        return self._finalize(inputs, out, B, T, D_v)

    def call_with_cache(self, inputs, *, cache):
        q, k, v, gamma, B, T, D_v = self._retention_args(inputs)
        assert T == 1, T
        q, k, v, cache = (ops.squeeze(x, axis=1) for x in (q, k, v, cache))
        out, cache = jax_retention.multi_head_retention_update(q, k, v, cache, gamma)
        out = self._finalize(inputs, ops.expand_dims(out, axis=1), B, T, D_v)
        return out, ops.expand_dims(cache, axis=1)
