# case: t34aa-06-fill
# modelled-on: brandnewchoppa/gau-tensorflow https://github.com/brandnewchoppa/gau-tensorflow/commit/d68c7847b392ea0511d4e8998d31f6c2e4cf200b
# label: correct
# class: fixed
# pattern: the same TensorFlow Gated Attention Unit after the fix (acbcb75), as the repository has it later, with the attention functions and the offset-scale in another module: `qk / n` plus a relative position bias goes through squared ReLU (or the Laplace function), a lower-triangular `band_part` keep mask is applied to the resulting weights with `tf.where(mask, a, 0.0)`, and the weights multiply the values in an einsum; there is no softmax anywhere
# why: correct: the attention function is relu(.) ** 2 (or an erf), which does not normalise, so zeroing the future weights after it is exactly the causal mask (there is nothing to renormalise, and a fill before it would have to be 0 or negative, which relu also maps to 0); 1/n (the sequence length) is FLASH's normalisation for squared-ReLU attention, not a 1/sqrt(d) softmax scale; the relative position bias is added before the function
# looks-like: ATT002, ATT003, ATT004, ATT006, ATT007
# source: https://github.com/brandnewchoppa/gau-tensorflow https://github.com/brandnewchoppa/gau-tensorflow/commit/acbcb755591a67ac0fe27388dcab8170ac3b6850 gau_tensorflow/gau_tensorflow.py
import tensorflow as tf
from keras import Sequential
from keras.layers import Dense, Dropout, Embedding, Layer, LayerNormalization
from tensorflow import cast, einsum, math, reshape

from gau.functions import LaplacianAttnFn, OffsetScale, ReLUSquared


class RelativePositionBias(Layer):
    """T5-style bucketed relative position bias, one scalar per (i, j)."""

    def __init__(self, *, scale: float, n_buckets: int = 32, max_distance: int = 128, **kwargs):
        super().__init__(**kwargs)
        self.scale = scale
        self.n_buckets = n_buckets
        self.max_distance = max_distance
        self.table = Embedding(n_buckets, 1)

    def bucket(self, rel):
        n = math.maximum(-rel, tf.zeros_like(rel))
        max_exact = self.n_buckets // 2
        is_small = n < max_exact
        large = max_exact + cast(
            math.log(cast(n, tf.float32) / max_exact) / math.log(self.max_distance / max_exact) * (self.n_buckets - max_exact),
            tf.int32,
        )
        large = math.minimum(large, self.n_buckets - 1)
        return tf.where(is_small, cast(n, tf.int32), large)

    def call(self, sim):
        i, j = sim.shape[-2:]
        q_pos = tf.range(i, dtype=tf.int32)
        k_pos = tf.range(j, dtype=tf.int32)
        rel = reshape(k_pos, [1, j]) - reshape(q_pos, [i, 1])
        values = self.table(self.bucket(rel))
        return reshape(values, values.shape[:-1]) * self.scale


class GAU(Layer):
    """Gated Attention Unit: u * attn(x, v), with one shared low-dimensional q/k projection."""

    def __init__(self, *, qk_dim: int = 64, expansion_factor: int = 2, causal: bool = False,
                 dropout_rate: float = 0.2, laplace_attn_fn: bool = False, **kwargs):
        super().__init__(**kwargs)
        self.qk_dim = qk_dim
        self.expansion_factor = expansion_factor
        self.causal = causal
        self.dropout_rate = dropout_rate
        self.laplace_attn_fn = laplace_attn_fn

    def build(self, x_shape):
        d = x_shape[-1]
        self.norm = LayerNormalization()
        self.to_uv = Dense((d * self.expansion_factor) * 2, activation="silu")
        self.to_qk = Dense(self.qk_dim, activation="silu")
        self.scale_offset = OffsetScale(splits=2)
        self.rel_pos_bias = RelativePositionBias(scale=d ** 0.5)
        self.dropout = Dropout(rate=self.dropout_rate)
        self.to_out = Sequential([Dense(d), Dropout(rate=self.dropout_rate)])
        self.attn_fn = LaplacianAttnFn() if self.laplace_attn_fn else ReLUSquared()
        self.built = True

    def _attn(self, x, v):
        n = cast(x.shape[-2], x.dtype)
        z = self.to_qk(x)
        q, k = self.scale_offset(z)

        qk = einsum("bns, bms -> bnm", q, k)
        a = self.attn_fn(qk / n + self.rel_pos_bias(qk))

        if self.causal:
            mask = tf.cast(tf.linalg.band_part(tf.ones([n, n]), -1, 0), tf.bool)
            a = tf.where(mask, a, 0.0)

        return einsum("bnm, bme -> bne", a, v)

    def call(self, x):
        shortcut, x = x, self.norm(x)
        u, v = tf.split(self.to_uv(x), 2, axis=-1)
        x = u * self.dropout(self._attn(x, v))
        return self.to_out(x) + tf.saturate_cast(shortcut, x.dtype)
