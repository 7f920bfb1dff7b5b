# case: b9-14-clean
# modelled-on: sweetchild222/model https://github.com/sweetchild222/model/commit/949e97be4252d7dcb07a2c5679197329bf4f4b2a
# label: correct
# class: clean
# pattern: a TensorFlow 2 seq2seq translation model with interchangeable attention layers in their own modules: Luong dot attention scores the encoder outputs with tf.matmul(values, expand_dims(query, -1)), Bahdanau additive attention with v(tanh(W1 q + W2 values)); both softmax the (batch, max_len, 1) scores with axis=1 and sum the weighted encoder outputs; a GRU decoder takes whichever layer it is given
# why: correct: the scores are (batch, max_len, 1), so axis=1 is the source-time axis (the last axis has length 1); in the Luong layer the query is expanded to (batch, units, 1), so values @ query is already the dot product per source step with no transpose needed; unscaled dot and additive scores are the layers' definitions (Luong et al., Bahdanau et al.), not a missing 1/sqrt(d)
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/sweetchild222/model https://github.com/sweetchild222/model/commit/949e97be4252d7dcb07a2c5679197329bf4f4b2a seq2seq_attention/decoder.py
import tensorflow as tf

from bahdanau import Bahdanau
from luong import Luong


class Decoder(tf.keras.Model):
    def __init__(self, vocab_size, embedding_dim, units, batch_size, attention):
        super(Decoder, self).__init__()
        self.batch_size = batch_size
        self.embedding = tf.keras.layers.Embedding(vocab_size, embedding_dim)
        self.gru = tf.keras.layers.GRU(units, return_sequences=True, return_state=True, recurrent_initializer="glorot_uniform")
        self.fc = tf.keras.layers.Dense(vocab_size)
        self.attention = attention

    def call(self, x, hidden, enc_output):
        context_vector, attention_weights = self.attention(hidden, enc_output)
        x = self.embedding(x)
        x = tf.concat([tf.expand_dims(context_vector, 1), x], axis=-1)
        output, state = self.gru(x)
        output = tf.reshape(output, (-1, output.shape[2]))
        return self.fc(output), state, attention_weights


def make_decoder(kind: str, vocab_size: int, embedding_dim: int, units: int, batch_size: int) -> Decoder:
    attention = Luong() if kind == "luong" else Bahdanau(units)
    return Decoder(vocab_size, embedding_dim, units, batch_size, attention)
