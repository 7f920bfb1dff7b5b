import tensorflow as tf


class BahdanauAttention(tf.keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.W1 = tf.keras.layers.Dense(units)
        self.W2 = tf.keras.layers.Dense(units)
        self.V = tf.keras.layers.Dense(1)

    def call(self, query, values):
        # query: (B, hidden); values: (B, max_len, hidden)
        q = tf.expand_dims(query, 1)  # (B, 1, hidden)
        score = self.V(tf.nn.tanh(self.W1(q) + self.W2(values)))  # (B, max_len, 1)
        attention_weights = tf.nn.softmax(score, axis=1)
        context = tf.reduce_sum(attention_weights * values, axis=1)
        return context, attention_weights
