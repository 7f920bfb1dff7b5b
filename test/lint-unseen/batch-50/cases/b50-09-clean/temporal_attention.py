# case: b50-09-clean
# modelled-on: seunghyeokleeme/Composite-Model-Traffic-Control https://github.com/seunghyeokleeme/Composite-Model-Traffic-Control/commit/1d49c07f46ef1057e900ccf201e5fe90bbe64eeb
# label: correct
# class: clean
# pattern: a folder: a Keras (TensorFlow 2) traffic-volume forecaster; a custom attention layer scores each time step of a bidirectional LSTM's output (batch, 24, features) with v . tanh(W x_t + b), squeezes the scores to (batch, 24), applies softmax over axis=1 and sums the time steps weighted by it; the model builder (other file) stacks three Bidirectional(LSTM(return_sequences=True)) before it
# why: correct: after the squeeze the scores are (batch, time), so axis=1 is the time axis and the weights over the 24 steps sum to one; this is additive attention pooling with a learned scoring vector, where no 1/sqrt(d) factor belongs; expand_dims(-1) broadcasts the weights over the features before the sum over time
# looks-like: ATT001, ATT003
# source: https://github.com/seunghyeokleeme/Composite-Model-Traffic-Control https://github.com/seunghyeokleeme/Composite-Model-Traffic-Control/commit/1d49c07f46ef1057e900ccf201e5fe90bbe64eeb traffic_volume/attention_layer.py
import tensorflow as tf
from tensorflow.keras.layers import Layer


class TimeStepAttention(Layer):
    """Pools a (batch, steps, features) sequence into (batch, features)."""

    def build(self, input_shape):
        width = input_shape[-1]
        self.proj = self.add_weight(name="proj", shape=(width, width), initializer="glorot_uniform", trainable=True)
        self.bias = self.add_weight(name="bias", shape=(width,), initializer="zeros", trainable=True)
        self.score_vec = self.add_weight(name="score_vec", shape=(width, 1), initializer="glorot_uniform", trainable=True)
        super().build(input_shape)

    def call(self, seq):
        hidden = tf.tanh(tf.tensordot(seq, self.proj, axes=1) + self.bias)
        scores = tf.squeeze(tf.tensordot(hidden, self.score_vec, axes=1), axis=-1)  # (batch, steps)
        weights = tf.nn.softmax(scores, axis=1)
        return tf.reduce_sum(seq * tf.expand_dims(weights, -1), axis=1)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], input_shape[-1])
