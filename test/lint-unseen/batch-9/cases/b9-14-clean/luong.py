import tensorflow as tf


class Luong(tf.keras.layers.Layer):
    """Dot-product (Luong) attention of one decoder state over the encoder outputs."""

    def __init__(self):
        super(Luong, self).__init__()

    def call(self, query, values):
        # query: (batch, units); values: (batch, max_len, units)
        query = tf.expand_dims(query, -1)  # (batch, units, 1)
        score = tf.matmul(values, query)  # (batch, max_len, 1)
        attention_weights = tf.nn.softmax(score, axis=1)
        context_vector = tf.reduce_sum(attention_weights * values, axis=1)
        return context_vector, attention_weights
