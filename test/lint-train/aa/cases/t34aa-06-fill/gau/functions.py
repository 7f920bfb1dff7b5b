import tensorflow as tf
from keras.layers import Layer
from tensorflow import math


class ReLUSquared(Layer):
    """Squared ReLU attention function (So et al., Primer): relu(x) ** 2, no normalisation."""

    def call(self, x):
        return math.square(tf.nn.relu(x))


class LaplacianAttnFn(Layer):
    """Laplace attention function (Ma et al. 2022), a drop-in for squared ReLU."""

    def __init__(self, *, use_n: bool = True, **kwargs):
        super().__init__(**kwargs)
        self.use_n = use_n
        self.PI = 3.14159265358

    def call(self, x):
        n = tf.saturate_cast(x.shape[-2], x.dtype) if self.use_n else 2.0
        mu = tf.saturate_cast(math.sqrt(0.5), x.dtype)
        std = tf.saturate_cast(math.sqrt(0.25 * self.PI), x.dtype)
        inner = (x - mu) / (std * tf.cast(math.sqrt(n), x.dtype))
        return 0.5 * (1 + math.erf(inner))


class OffsetScale(Layer):
    """Per-dimension scale and offset: several cheap heads (here q and k) from one tensor."""

    def __init__(self, *, splits: int = 1, **kwargs):
        super().__init__(**kwargs)
        self.splits = splits

    def build(self, x_shape):
        d = x_shape[-1]
        self.gamma = self.add_weight(name="gamma", shape=(self.splits, d), initializer=tf.keras.initializers.ones())
        self.beta = self.add_weight(name="beta", shape=(self.splits, d), initializer=tf.keras.initializers.zeros())
        self.built = True

    def call(self, x):
        out = tf.einsum("...e, se -> ...se", x, self.gamma) + self.beta
        return tf.unstack(out, axis=-2)
