# case: t35bb-06-scale
# modelled-on: noahtren/transformer-tf2 https://github.com/noahtren/transformer-tf2/commit/d757ef588b3ecf52caa24acfab2c7a5ea699d796
# label: buggy
# class: real-bug
# pattern: a TensorFlow 2 / Keras multi-head self-attention layer configured by a dict (dk, dv, seq_len, num_heads): q, k, v reshaped to [B, L, H, d] and transposed to [B, H, L, d], scores `tf.matmul(q, k, transpose_b=True)`, then `tf.math.multiply(align, tf.math.sqrt(tf.cast(self.dk, tf.float32)))`, softmax over the last axis, and the context built by broadcasting the weights against tiled values and reducing over the key axis (axis 3) instead of a matmul
# why: buggy: the scores are MULTIPLIED by sqrt(dk) (sqrt(32) = 5.7 in the model's configuration) instead of divided by it, so the logits are dk = 32 times larger than scaled dot-product attention's and the softmax saturates; the context itself is right (the weights [B, H, Lq, Lk, 1] times the values tiled to [B, H, Lq, Lk, dv], summed over axis 3, the key axis); the repository has no fix
# source: https://github.com/noahtren/transformer-tf2 https://github.com/noahtren/transformer-tf2/commit/d757ef588b3ecf52caa24acfab2c7a5ea699d796 attn.py
import tensorflow as tf


class Boom(tf.keras.layers.Layer):
    """Position-wise feed-forward layer of the original Transformer."""

    def __init__(self, config, **kwargs):
        super().__init__(**kwargs)
        self.config = config
        self.dim = config["dim"]
        self.w1 = tf.keras.layers.Dense(self.dim * 4)
        self.w2 = tf.keras.layers.Dense(self.dim)

    def call(self, inputs):
        return self.w2(tf.nn.gelu(self.w1(inputs)))


class MultiHeadSelfAttention(tf.keras.layers.Layer):
    def __init__(self, config, **kwargs):
        super().__init__(**kwargs)
        self.config = config
        for attr in ["dk", "dv", "seq_len", "num_heads"]:
            assert attr in config, f"`{attr}` must be in config of `{self.__class__.__name__}` layer"
            setattr(self, attr, config[attr])
        self.q_w = tf.keras.layers.Dense(self.num_heads * self.dk)
        self.k_w = tf.keras.layers.Dense(self.num_heads * self.dk)
        self.v_w = tf.keras.layers.Dense(self.num_heads * self.dv)
        self.linear = tf.keras.layers.Dense(self.dv)

    def call(self, inputs):
        """inputs: [batch_size, seq_len, dv]"""
        x = inputs
        q_raw = self.q_w(x)
        k_raw = self.k_w(x)
        v_raw = self.v_w(x)

        q = tf.reshape(q_raw, [-1, self.seq_len, self.num_heads, self.dk])
        k = tf.reshape(k_raw, [-1, self.seq_len, self.num_heads, self.dk])
        v = tf.reshape(v_raw, [-1, self.seq_len, self.num_heads, self.dv])

        q = tf.transpose(q, [0, 2, 1, 3])
        k = tf.transpose(k, [0, 2, 1, 3])
        v = tf.transpose(v, [0, 2, 1, 3])

        # alignment
        align = tf.matmul(q, k, transpose_b=True)
        align = tf.math.multiply(align, tf.math.sqrt(tf.cast(self.dk, tf.float32)))  # expect: ATT004
        align = tf.nn.softmax(align, axis=-1)

        # context: weights [B, H, Lq, Lk, 1] times values tiled over the queries, summed over the keys
        v_broadcast = tf.tile(v[:, :, tf.newaxis], [1, 1, self.seq_len, 1, 1])
        v_aligned = tf.math.multiply(align[..., tf.newaxis], v_broadcast)
        summed_v = tf.reduce_sum(v_aligned, axis=3)
        context = tf.transpose(summed_v, [0, 2, 3, 1])
        context = tf.reshape(context, [-1, self.seq_len, self.num_heads * self.dv])

        return self.linear(context)


class TransformerEncoderBlock(tf.keras.Model):
    def __init__(self, config, **kwargs):
        super().__init__(**kwargs)
        self.config = config
        self.mhsa = MultiHeadSelfAttention({k: config[k] for k in ["dk", "dv", "seq_len", "num_heads"]})
        self.norm1 = tf.keras.layers.LayerNormalization()
        self.boom = Boom({"dim": config["dv"]})
        self.norm2 = tf.keras.layers.LayerNormalization()

    def call(self, inputs):
        x1 = inputs
        x2 = self.norm1(x1 + self.mhsa(x1))
        x3 = self.boom(x2)
        return self.norm2(x3 + x2)
