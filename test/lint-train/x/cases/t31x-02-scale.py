# case: t31x-02-scale
# modelled-on: ElizavetaKharlova/seq2seq-solar-forecasting https://github.com/ElizavetaKharlova/seq2seq-solar-forecasting/commit/99e7cbb199a99b0272b34b8ac4b7530fa25dd483
# label: buggy
# class: real-bug
# pattern: the same forecasting project's final attention layer (TensorFlow 2, after many rewrites of its mask): Dense projections of width units for query, key and value, scores tf.matmul(query, key, transpose_b=True), in 'Transformer' mode divided by tf.math.sqrt(tf.cast(tf.shape(value)[1], tf.float32)) on the projected (batch, time, units) values, a causal mask -1e12 * (ones - band_part(ones, -1, 0)) added for self-attention, softmax over axis=-1; a multi-head layer concatenates several such heads
# why: buggy: tf.shape(value)[1] of the projected (batch, time, units) values is the number of time steps, not the feature width, so the scores are divided by sqrt(sequence length) instead of sqrt(units): the temperature changes with the input window and has nothing to do with the dot-product variance; it should be tf.shape(value)[-1] (or units). The causal mask (strictly upper triangle, added before the softmax) and the softmax axis are right
# source: https://github.com/ElizavetaKharlova/seq2seq-solar-forecasting https://github.com/ElizavetaKharlova/seq2seq-solar-forecasting/commit/99e7cbb199a99b0272b34b8ac4b7530fa25dd483 Building_Blocks.py
import tensorflow as tf


class Attention(tf.keras.layers.Layer):
    """Dot-product or scaled dot-product (Transformer) attention; self-attention is causal."""

    def __init__(self, units, mode='Transformer', L1=0.0, L2=0.0):
        super().__init__()
        self.mode = mode
        reg = tf.keras.regularizers.l1_l2(l1=L1, l2=L2)
        self.W_query = tf.keras.layers.Dense(units, activation=None, kernel_regularizer=reg, use_bias=False)
        self.W_key = tf.keras.layers.Dense(units, activation=None, kernel_regularizer=reg, use_bias=False)
        self.W_value = tf.keras.layers.Dense(units, activation=None, kernel_regularizer=reg, use_bias=False)

    def add_causal_mask(self, scores):
        ones = tf.ones_like(scores)
        causal_mask = -1e12 * (ones - tf.linalg.band_part(ones, -1, 0))  # strictly upper triangle
        return scores + causal_mask

    def call(self, query, value=None, key=None):
        if value is None:
            value = query
            self_attention = True
        else:
            self_attention = False
        if key is None:
            key = value

        query = self.W_query(query)  # (batch, time_q, units)
        key = self.W_key(key)  # (batch, time_k, units)
        value = self.W_value(value)  # (batch, time_k, units)

        score_pre_softmax = tf.matmul(query, key, transpose_b=True)  # (batch, time_q, time_k)
        if self.mode == 'Transformer':
            # plain dot-product attention otherwise (no scaling)
            score_pre_softmax = score_pre_softmax / tf.math.sqrt(tf.cast(tf.shape(value)[1], tf.float32))  # expect: ATT004
        if self_attention:
            score_pre_softmax = self.add_causal_mask(score_pre_softmax)
        score = tf.nn.softmax(score_pre_softmax, axis=-1)
        return tf.matmul(score, value)


class MultiheadAttentiveLayer(tf.keras.layers.Layer):
    def __init__(self, num_heads=3, output_units=20, L1=0.0, L2=0.0):
        super().__init__()
        self.heads = [Attention(output_units // num_heads, L1=L1, L2=L2) for _ in range(num_heads)]
        self.projection = tf.keras.layers.Dense(output_units, use_bias=False)

    def call(self, query, value=None):
        heads = [head(query, value) for head in self.heads]
        return self.projection(tf.concat(heads, axis=-1))
