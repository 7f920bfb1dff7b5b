# case: softmax-bahdanau-tf-axis1
# modelled-on: tensorflow/tensorflow https://github.com/tensorflow/tensorflow/issues/43941
# label: correct
# pattern: Bahdanau (additive) attention from the TF NMT tutorial: score has shape (batch, max_length, 1) and is softmaxed over axis=1; additive scores are never divided by sqrt(d)
# why: axis 1 is the encoder time axis (the keys); additive attention has no dot-product scale to apply
# looks-like: ATT001, ATT003
import tensorflow as tf


class BahdanauAttention(tf.keras.layers.Layer):
    def __init__(self, units: int):
        super().__init__()
        self.W1 = tf.keras.layers.Dense(units)
        self.W2 = tf.keras.layers.Dense(units)
        self.V = tf.keras.layers.Dense(1)

    def call(self, query, values):
        # query: (batch, hidden); values: (batch, max_length, hidden)
        query_with_time_axis = tf.expand_dims(query, 1)  # (batch, 1, hidden)
        # score: (batch, max_length, 1)
        score = self.V(tf.nn.tanh(self.W1(query_with_time_axis) + self.W2(values)))
        attention_weights = tf.nn.softmax(score, axis=1)  # over max_length
        context_vector = attention_weights * values
        context_vector = tf.reduce_sum(context_vector, axis=1)  # (batch, hidden)
        return context_vector, attention_weights


class Decoder(tf.keras.Model):
    def __init__(self, vocab_size: int, embedding_dim: int, dec_units: int):
        super().__init__()
        self.embedding = tf.keras.layers.Embedding(vocab_size, embedding_dim)
        self.gru = tf.keras.layers.GRU(dec_units, return_sequences=True, return_state=True)
        self.fc = tf.keras.layers.Dense(vocab_size)
        self.attention = BahdanauAttention(dec_units)

    def call(self, x, hidden, enc_output):
        context_vector, attention_weights = self.attention(hidden, enc_output)
        x = self.embedding(x)  # (batch, 1, embedding_dim)
        x = tf.concat([tf.expand_dims(context_vector, 1), x], axis=-1)
        output, state = self.gru(x)
        output = tf.reshape(output, (-1, output.shape[2]))
        return self.fc(output), state, attention_weights
