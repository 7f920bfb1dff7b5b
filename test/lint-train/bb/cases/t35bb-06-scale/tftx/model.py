import tensorflow as tf

from .attn import TransformerEncoderBlock


def positional_encoding(seq_len, d_v):
    ks = tf.range(d_v // 2, dtype=tf.float32)
    pos_dims = 1 / (10_000) ** (2 * ks / d_v)
    position_terms = tf.range(seq_len, dtype=tf.float32)[tf.newaxis] * pos_dims[:, tf.newaxis]
    pos = tf.stack([tf.math.sin(position_terms), tf.math.cos(position_terms)], axis=2)
    return tf.reshape(pos, [seq_len, -1])


class Transformer(tf.keras.Model):
    def __init__(self, config):
        super().__init__()
        for attr in ["num_blocks", "vocab_size", "dk", "dv", "seq_len", "num_heads"]:
            setattr(self, attr, config[attr])
        self.token_embed = tf.keras.layers.Dense(self.dv)
        self.blocks = [
            TransformerEncoderBlock({"dk": self.dk, "dv": self.dv, "seq_len": self.seq_len, "num_heads": self.num_heads})
            for _ in range(self.num_blocks)
        ]

    def call(self, inputs):
        x = self.token_embed(tf.one_hot(inputs, depth=self.vocab_size, dtype=tf.float32))
        x = x + positional_encoding(self.seq_len, self.dv)
        for block in self.blocks:
            x = block(x)
        return x


def build_sample(vocab_size):
    return Transformer({"num_blocks": 2, "dk": 32, "dv": 64, "seq_len": 128, "num_heads": 4, "vocab_size": vocab_size})
