import tensorflow as tf


class Bahdanau(tf.keras.layers.Layer):
    """Additive (Bahdanau) attention of one decoder state over the encoder outputs."""

    def __init__(self, units):
        super(Bahdanau, self).__init__()
        self.w1 = tf.keras.layers.Dense(units)
        self.w2 = tf.keras.layers.Dense(units)
        self.v = tf.keras.layers.Dense(1)

    def call(self, query, values):
        query = tf.expand_dims(query, 1)  # (batch, 1, units)
        score = self.v(tf.nn.tanh(self.w1(query) + self.w2(values)))  # (batch, max_len, 1)
        attention_weights = tf.nn.softmax(score, axis=1)
        context_vector = tf.reduce_sum(attention_weights * values, axis=1)
        return context_vector, attention_weights
