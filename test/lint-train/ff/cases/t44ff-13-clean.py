# case: t44ff-13-clean
# modelled-on: MohammedFouly/CNN-BiLSTM-Attention-for-Abnormal-Behaviors-Detection https://github.com/MohammedFouly/CNN-BiLSTM-Attention-for-Abnormal-Behaviors-Detection/commit/2ad72939e27ca92f9e23fe7c3921971517be10da
# label: correct
# class: clean
# pattern: a Keras custom additive-attention layer over BiLSTM outputs of network-flow windows (batch, L, features): `tanh(tensordot(H, W) + b)`, `tensordot(u, v)` to (batch, L, 1), squeezed to (batch, L), `tf.nn.softmax(e, axis=1)`, then `reduce_sum(H * alpha[..., None], axis=1)`; a sigmoid feature gate before the convolutions
# why: correct: after the squeeze the energies are (batch, L), so axis=1 is the time axis of the window, the one the weighted sum reduces; the sigmoid gate scales input features and is not attention
# looks-like: ATT001
# source: https://github.com/MohammedFouly/CNN-BiLSTM-Attention-for-Abnormal-Behaviors-Detection https://github.com/MohammedFouly/CNN-BiLSTM-Attention-for-Abnormal-Behaviors-Detection/commit/2ad72939e27ca92f9e23fe7c3921971517be10da Model Pipeline/model.py
import numpy as np
import tensorflow as tf
from tensorflow.keras import Input, Model, layers


class FeatureGate(layers.Layer):
    def __init__(self, n_features, prior=None, **kwargs):
        super().__init__(**kwargs)
        self.n_features = n_features
        self.prior = np.full((n_features,), 0.5, np.float32) if prior is None else np.asarray(prior, np.float32)

    def build(self, input_shape):
        logit = np.log(np.clip(self.prior, 1e-6, 1 - 1e-6) / (1 - np.clip(self.prior, 1e-6, 1 - 1e-6)))
        self.w = self.add_weight(name="gate_w", shape=(self.n_features,), initializer="glorot_uniform")
        self.b = self.add_weight(name="gate_b", shape=(self.n_features,),
                                 initializer=tf.keras.initializers.Constant(logit.astype(np.float32)))
        super().build(input_shape)

    def call(self, x):
        return x * tf.sigmoid(x * self.w + self.b)


class TimeAttention(layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.W = self.add_weight(name="att_W", shape=(input_shape[-1], self.units), initializer="glorot_uniform")
        self.b = self.add_weight(name="att_b", shape=(self.units,), initializer="zeros")
        self.v = self.add_weight(name="att_v", shape=(self.units, 1), initializer="glorot_uniform")
        super().build(input_shape)

    def call(self, H):
        u = tf.tanh(tf.tensordot(H, self.W, axes=1) + self.b)
        e = tf.squeeze(tf.tensordot(u, self.v, axes=1), axis=-1)   # (batch, L)
        alpha = tf.nn.softmax(e, axis=1)
        context = tf.reduce_sum(H * tf.expand_dims(alpha, axis=-1), axis=1)
        return context, alpha


def flow_classifier(window, n_features, filters=(64, 128), rnn_units=128, att_units=128, drop=0.3):
    x_in = Input(shape=(window, n_features))
    x = FeatureGate(n_features)(x_in)
    for f in filters:
        x = layers.Conv1D(f, 3, activation="relu", padding="same")(x)
        x = layers.Dropout(drop)(x)
    x = layers.Bidirectional(layers.LSTM(rnn_units, return_sequences=True))(x)
    context, _ = TimeAttention(att_units)(x)
    x = layers.Dropout(drop)(layers.Dense(128, activation="relu")(context))
    model = Model(x_in, layers.Dense(1, activation="sigmoid")(x))
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss="binary_crossentropy", metrics=["accuracy"])
    return model
