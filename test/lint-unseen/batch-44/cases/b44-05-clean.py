# case: b44-05-clean
# modelled-on: yaoshiang/multiheaded_attention_ground_up https://github.com/yaoshiang/multiheaded_attention_ground_up/commit/254a29ee0176716b0922bbebf32c30673985432f
# label: correct
# class: clean
# pattern: a Keras layer written "from the ground up" with tf.einsum for an image classifier: each head projects every token embedding (B, H, T, D) to one scalar key and one scalar query, the attention logits are the outer product of the two (B, H, T, T), normalised with tf.nn.softmax(axis=3) over the key axis, and applied to per-head values; a per-position feed-forward then mixes the heads
# why: correct: softmax over axis 3 of (B, H, T, t) is the key axis, and the layer asserts that each row sums to one; the query and key of a head are scalars (width 1), so the 1/sqrt(d_k) of scaled dot-product attention is 1/sqrt(1) and no scale is missing
# looks-like: ATT001, ATT003
# source: https://github.com/yaoshiang/multiheaded_attention_ground_up https://github.com/yaoshiang/multiheaded_attention_ground_up/commit/254a29ee0176716b0922bbebf32c30673985432f mha.py
import tensorflow as tf


class EinsumHeads(tf.keras.layers.Layer):
    """Multi-head attention over image tokens; every head sees the whole embedding."""

    def __init__(self, width: int, heads: int, **kwargs):
        super().__init__(**kwargs)
        self.width = width
        self.heads = heads
        self.norm_a = tf.keras.layers.LayerNormalization()
        self.norm_b = tf.keras.layers.LayerNormalization()
        self.act = tf.keras.layers.Activation("gelu")

    def build(self, shape):
        # (B, T, D) for the first layer, (B, H, T, D) after it
        self.lift = len(shape) == 3
        h, e = self.heads, self.width
        init = tf.keras.initializers.glorot_normal()
        self.w_key = self.add_weight(name="w_key", shape=(1, h, e), initializer=init)
        self.w_query = self.add_weight(name="w_query", shape=(1, h, e), initializer=init)
        self.w_value = self.add_weight(name="w_value", shape=(1, h, e, e), initializer=init)
        self.b_value = self.add_weight(name="b_value", shape=(1, h, 1, e), initializer="zeros")
        self.w_mix = self.add_weight(name="w_mix", shape=(1, h, h, e, e), initializer=init)
        self.b_mix = self.add_weight(name="b_mix", shape=(1, h, 1, e), initializer="zeros")

    def call(self, tokens):
        if self.lift:
            tokens = tokens[:, tf.newaxis]  # one head axis, broadcast against the kernels
        # one scalar key and one scalar query per token and head: (B, H, T)
        key = tf.einsum("...TD,...D->...T", tokens, self.w_key)
        query = tf.einsum("...TD,...D->...T", tokens, self.w_query)
        value = tf.einsum("...TD,...Dd->...Td", tokens, self.w_value) + self.b_value

        # (B, H, T, t): the product of two width-1 vectors
        logits = tf.einsum("...T,...t->...Tt", query, key)
        gate = tf.nn.softmax(logits, axis=3)
        tf.debugging.assert_near(tf.reduce_sum(gate[0, 0, 0]), 1.0)
        mixed = tf.einsum("...Tt,...td->...Td", gate, value)

        z = self.norm_a(tokens + mixed)
        y = tf.einsum("...HTD,...HhDd->...hTd", z, self.w_mix) + self.b_mix
        return self.norm_b(self.act(z + y))


def classifier(patch_tokens: int, width: int = 64, heads: int = 4, depth: int = 3, classes: int = 10):
    inp = tf.keras.Input(shape=(patch_tokens, width))
    x = inp
    for _ in range(depth):
        x = EinsumHeads(width, heads)(x)
    x = tf.reduce_mean(x, axis=[1, 2])
    return tf.keras.Model(inp, tf.keras.layers.Dense(classes)(x))
