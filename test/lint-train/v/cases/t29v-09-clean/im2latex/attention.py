# case: t29v-09-clean
# modelled-on: AliKarimi74/DL-Final-Project https://github.com/AliKarimi74/DL-Final-Project/commit/026e20961e034b8423fdd2bad9e3d181d5c0bddd
# label: correct
# class: clean
# pattern: an image-to-LaTeX model in TensorFlow/Keras (course final project): a CNN feature map is run row by row through a bidirectional GRU and flattened to features (batch, n_rows * n_cols, 2 * 256); the GRU decoder's state (batch, 512) attends over those locations with the TF-tutorial Bahdanau layer: hidden is expanded to (batch, 1, 512), score = tanh(W1(features) + W2(hidden_with_time_axis)) is (batch, n_locations, units), V = Dense(1) makes it (batch, n_locations, 1), and tf.nn.softmax(..., axis=1) normalises; the context is reduce_sum(weights * features, axis=1); no 1/sqrt(d) anywhere
# why: correct: after V = Dense(1) the last axis has length 1 and the locations are axis 1 (the shape comments and the expand_dims say so), so axis=1 is the key axis and a softmax over -1 would be the bug; the weights broadcast over the feature axis and the reduce_sum is over the same axis 1; additive (tanh) attention has no dot product of two projections to temper, so no scale is missing; the query (512) and key (512 encoder channels) widths differ in general and meet only through W1 and W2 of width units
# looks-like: ATT001, ATT003
# source: https://github.com/AliKarimi74/DL-Final-Project https://github.com/AliKarimi74/DL-Final-Project/commit/026e20961e034b8423fdd2bad9e3d181d5c0bddd utils/attention.py, model/decoders.py, model/row_encoder.py
import tensorflow as tf


class BahdanauAttention(tf.keras.Model):

    def __init__(self, units):
        super(BahdanauAttention, self).__init__()
        self.W1 = tf.keras.layers.Dense(units)
        self.W2 = tf.keras.layers.Dense(units)
        self.V = tf.keras.layers.Dense(1)

    def call(self, features, hidden):
        # features shape == (batch_size, n_locations, dim)
        # hidden shape == (batch_size, hidden_size)
        # hidden_with_time_axis shape == (batch_size, 1, hidden_size)
        hidden_with_time_axis = tf.expand_dims(hidden, axis=1)

        # score shape == (batch_size, n_locations, units)
        score = tf.nn.tanh(self.W1(features) + self.W2(hidden_with_time_axis))

        # attention_weights shape == (batch_size, n_locations, 1)
        attention_weights = tf.nn.softmax(self.V(score), axis=1)

        # context_vector shape after sum == (batch_size, dim)
        context_vector = attention_weights * features
        context_vector = tf.reduce_sum(context_vector, axis=1)

        return context_vector, attention_weights
