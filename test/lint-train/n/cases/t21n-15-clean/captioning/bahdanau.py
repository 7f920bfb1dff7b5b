import tensorflow as tf


class BahdanauAttention(tf.keras.Model):
    """Additive attention over the 64 image regions, conditioned on the LSTM's h and c states."""

    def __init__(self, dense_size: int) -> None:
        super(BahdanauAttention, self).__init__()
        self.w_1 = tf.keras.layers.Dense(dense_size)
        self.w_2 = tf.keras.layers.Dense(dense_size)
        self.w_3 = tf.keras.layers.Dense(dense_size)
        self.v = tf.keras.layers.Dense(1)

    def call(self, encoder_out, hidden_state_h, hidden_state_c):
        # encoder_out: (batch, 64, embedding); states: (batch, rnn_size)
        h_time = tf.expand_dims(hidden_state_h, 1)
        c_time = tf.expand_dims(hidden_state_c, 1)
        score = self.v(tf.nn.tanh(self.w_1(encoder_out) + self.w_2(h_time) + self.w_3(c_time)))  # (batch, 64, 1)
        weights = tf.nn.softmax(score, axis=1)
        return tf.reduce_sum(weights * encoder_out, axis=1)
