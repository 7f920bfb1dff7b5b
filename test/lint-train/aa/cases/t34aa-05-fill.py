# case: t34aa-05-fill
# modelled-on: brandnewchoppa/gau-tensorflow https://github.com/brandnewchoppa/gau-tensorflow/commit/7bf3336dc3ed7cd0eaf8114f0d20981dd4c3df95
# label: buggy
# class: real-bug
# pattern: a TensorFlow Gated Attention Unit (FLASH, Hua et al. 2022): single-head q and k from one shared projection by a per-dim offset-scale, `qk / n` plus a relative position bias, then a squared-ReLU (or Laplace) attention function instead of a softmax, and for the causal variant a lower-triangular `band_part` keep mask applied to those weights with `tf.where(mask, a, -1e10)` before the product with the values
# why: buggy: squared-ReLU attention has no normalisation that a large negative logit could send to zero; the mask is applied to the weights after the attention function, so every future position gets the weight -1e10 and the einsum with v adds -1e10 times the future values to each output (the causal layer is numerically destroyed rather than masked); the author changed the fill to 0.0 in the next commit (acbcb75, "causal mask value changed to 0.0"), which is right for weights that are not renormalised
# source: https://github.com/brandnewchoppa/gau-tensorflow https://github.com/brandnewchoppa/gau-tensorflow/commit/acbcb755591a67ac0fe27388dcab8170ac3b6850 gau_tensorflow/gau_tensorflow.py
import tensorflow as tf
from keras.layers import Dense, Dropout, Embedding, Layer, LayerNormalization
from keras import Sequential
from tensorflow import cast, einsum, math, reshape


class OffsetScale(Layer):
    """Per-dimension scale and offset: several cheap heads (here q and k) from one tensor."""

    def __init__(self, splits: int = 1, **kwargs):
        super().__init__(**kwargs)
        self.splits = splits

    def build(self, x_shape):
        e = x_shape[-1]
        self.gamma = self.add_weight(name="gamma", shape=(self.splits, e), initializer=tf.keras.initializers.ones())
        self.beta = self.add_weight(name="beta", shape=(self.splits, e), initializer=tf.keras.initializers.zeros())
        self.built = True

    def call(self, x):
        out = einsum("...e, se -> ...se", x, self.gamma) + self.beta
        return tf.unstack(out, axis=-2)


class RelativePositionBias(Layer):
    """T5-style bucketed relative position bias, one scalar per (i, j)."""

    def __init__(self, scale: float, n_buckets: int = 32, max_distance: int = 128, **kwargs):
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


class LaplacianAttnFn(Layer):
    """Laplace attention function (Ma et al. 2022), a drop-in for squared ReLU."""

    def __init__(self, use_n: bool = True, **kwargs):
        super().__init__(**kwargs)
        self.use_n = use_n
        self.PI = 3.14159265358

    def call(self, x):
        n = tf.saturate_cast(x.shape[-2], x.dtype) if self.use_n else 2.0
        mu = tf.saturate_cast(math.sqrt(0.5), x.dtype)
        std = tf.saturate_cast(math.sqrt(0.25 * self.PI), x.dtype)
        inner = (x - mu) / (std * tf.cast(math.sqrt(n), x.dtype))
        return 0.5 * (1 + math.erf(inner))


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
        e = x_shape[-1]
        self.norm = LayerNormalization()
        self.to_uv = Dense((e * self.expansion_factor) * 2, activation="silu")
        self.to_qk = Dense(self.qk_dim, activation="silu")
        self.scale_offset = OffsetScale(splits=2)
        self.rel_pos_bias = RelativePositionBias(scale=e ** 0.5)
        self.dropout = Dropout(rate=self.dropout_rate)
        self.to_out = Sequential([Dense(e), Dropout(rate=self.dropout_rate)])
        if self.laplace_attn_fn:
            self.attn_fn = LaplacianAttnFn()
        else:
            self.attn_fn = lambda x: tf.math.square(tf.nn.relu(x))
        self.built = True

    def _attn(self, x, v):
        n = cast(x.shape[-2], x.dtype)
        z = self.to_qk(x)
        q, k = self.scale_offset(z)

        qk = einsum("bns, bms -> bnm", q, k)
        a = self.attn_fn(qk / n + self.rel_pos_bias(qk))

        if self.causal:
            mask = tf.cast(tf.linalg.band_part(tf.ones([n, n]), -1, 0), tf.bool)
            a = tf.where(mask, a, -1e10)  # expect: ATT007

        return einsum("bnm, bme -> bne", a, v)

    def call(self, x):
        shortcut, x = x, self.norm(x)
        u, v = tf.split(self.to_uv(x), 2, axis=-1)
        x = u * self.dropout(self._attn(x, v))
        return self.to_out(x) + shortcut
