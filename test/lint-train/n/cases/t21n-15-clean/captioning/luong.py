# case: t21n-15-clean
# modelled-on: preetham-ganesh/captioning-of-images-using-luong-attention https://github.com/preetham-ganesh/captioning-of-images-using-luong-attention/commit/89824b23242ae4acc4241827264498204cf385c0
# label: correct
# class: clean
# pattern: an image-captioning project comparing Bahdanau and Luong attention in Keras (TensorFlow 2): image features are (batch, 64 regions, embedding); the Luong decoder runs an LSTM with return_sequences=True on one token, so its output is (batch, 1, rnn_size), the attention computes tf.matmul(decoder_out, w_a(encoder_out), transpose_b=True) = (batch, 1, 64) and softmaxes over axis=2, then tf.matmul(weights, encoder_out); the Bahdanau module in another file scores (batch, 64, 1) additive energies and softmaxes over axis=1 before a weighted sum over the regions
# why: correct: in the Luong module axis 2 of (batch, 1, regions) is the region axis (axis 1 has length 1), and transpose_b=True transposes the projected encoder features for the dot product; in the Bahdanau module axis 1 of (batch, regions, 1) is the region axis (the last has length 1); neither score is scaled, as in both papers
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/preetham-ganesh/captioning-of-images-using-luong-attention https://github.com/preetham-ganesh/captioning-of-images-using-luong-attention/commit/89824b23242ae4acc4241827264498204cf385c0 codes/luong_attention_model.py
import tensorflow as tf

from captioning.bahdanau import BahdanauAttention


class LuongAttention(tf.keras.Model):
    def __init__(self, dense_size: int) -> None:
        super(LuongAttention, self).__init__()
        self.w_a = tf.keras.layers.Dense(dense_size)

    def call(self, encoder_out, decoder_out):
        scores = tf.matmul(decoder_out, self.w_a(encoder_out), transpose_b=True)  # (batch, 1, 64)
        weights = tf.nn.softmax(scores, axis=2)
        return tf.matmul(weights, encoder_out)  # (batch, 1, embedding)


class LuongDecoder(tf.keras.Model):
    def __init__(self, embedding_size, rnn_size, dropout_rate, target_vocab_size):
        super(LuongDecoder, self).__init__()
        self.attention_layer = LuongAttention(rnn_size)
        self.embedding_layer = tf.keras.layers.Embedding(target_vocab_size, embedding_size)
        self.rnn_layer = tf.keras.layers.LSTM(rnn_size, return_state=True, return_sequences=True)
        self.dense_layer_1 = tf.keras.layers.Dense(rnn_size, activation="tanh")
        self.dropout_layer = tf.keras.layers.Dropout(rate=dropout_rate)
        self.dense_layer_2 = tf.keras.layers.Dense(target_vocab_size)

    def call(self, x, hidden_states, encoder_out, training):
        x = self.embedding_layer(x)  # (batch, 1, embedding)
        x, h, c = self.rnn_layer(x, initial_state=hidden_states)  # (batch, 1, rnn_size)
        x = self.dropout_layer(x, training=training)
        context = self.attention_layer(encoder_out, x)
        x = tf.concat([tf.squeeze(context, 1), tf.squeeze(x, 1)], 1)
        x = self.dropout_layer(self.dense_layer_1(x), training=training)
        return self.dense_layer_2(x), [h, c]


class BahdanauDecoder(tf.keras.Model):
    def __init__(self, embedding_size, rnn_size, dropout_rate, target_vocab_size):
        super(BahdanauDecoder, self).__init__()
        self.attention_layer = BahdanauAttention(rnn_size)
        self.embedding_layer = tf.keras.layers.Embedding(target_vocab_size, embedding_size)
        self.rnn_layer = tf.keras.layers.LSTM(rnn_size, return_state=True, return_sequences=True)
        self.dense_layer = tf.keras.layers.Dense(target_vocab_size)

    def call(self, x, hidden_states, encoder_out, training):
        context = self.attention_layer(encoder_out, hidden_states[0], hidden_states[1])  # (batch, embedding)
        x = tf.concat([tf.expand_dims(context, 1), self.embedding_layer(x)], axis=-1)
        x, h, c = self.rnn_layer(x, initial_state=hidden_states)
        return self.dense_layer(tf.squeeze(x, 1)), [h, c]
