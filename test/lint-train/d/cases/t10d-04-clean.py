# case: t10d-04-clean
# modelled-on: yousoo0920/ess-vpp-project https://github.com/yousoo0920/ess-vpp-project/commit/b0b8515b0a8e88845ebce51ddc51ef3fdfc2b463
# label: correct
# class: clean
# pattern: a Keras attention-pooling layer for an LSTM forecaster (curtailment prediction): weights W (features, 1) and a per-step bias b (steps, 1) built from the input shape, scores e = tanh(dot(x, W) + b) of shape (batch, steps, 1), softmax over axis=1, the inputs weighted by the scores and summed over the time axis; the model stacks an LSTM with return_sequences=True, the pooling layer and a dense head
# why: correct: the scores keep a trailing length-1 axis, so axis=1 is the time axis the weights must sum over (axis=-1 would be the length-1 axis); additive attention pooling has no query-key product and no scale; what a naive linter could misread: ATT001 (softmax with axis=1 on a 3-D tensor whose last axis has length 1), ATT003 (no scale)
# looks-like: ATT001, ATT003
# source: https://github.com/yousoo0920/ess-vpp-project https://github.com/yousoo0920/ess-vpp-project/commit/b0b8515b0a8e88845ebce51ddc51ef3fdfc2b463 utils/attention.py
import tensorflow as tf
from tensorflow.keras.layers import LSTM, Dense, Input, Layer


class StepAttention(Layer):
    def build(self, input_shape):
        self.W = self.add_weight(name="att_weight", shape=(input_shape[-1], 1), initializer="random_normal", trainable=True)
        self.b = self.add_weight(name="att_bias", shape=(input_shape[1], 1), initializer="zeros", trainable=True)

    def call(self, inputs):
        # inputs: (batch, steps, features)
        e = tf.keras.backend.tanh(tf.keras.backend.dot(inputs, self.W) + self.b)  # (batch, steps, 1)
        alpha = tf.keras.backend.softmax(e, axis=1)
        context = inputs * alpha
        return tf.keras.backend.sum(context, axis=1)  # (batch, features)


def build_forecaster(window, n_features, units=64):
    x_in = Input(shape=(window, n_features))
    h = LSTM(units, return_sequences=True)(x_in)
    pooled = StepAttention()(h)
    out = Dense(1, activation="sigmoid")(pooled)
    return tf.keras.Model(x_in, out)


if __name__ == "__main__":
    model = build_forecaster(24, 7)
    model.compile(optimizer="adam", loss="binary_crossentropy")
    model.summary()
