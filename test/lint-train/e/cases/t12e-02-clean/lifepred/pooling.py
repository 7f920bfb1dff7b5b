# case: t12e-02-clean
# modelled-on: mschongchulshin/fatigue_life_predictor https://github.com/mschongchulshin/fatigue_life_predictor/commit/7c057dc0e22e0d87775ca6cdc0f92d0f3e3171fb
# label: correct
# class: clean
# pattern: a Keras attention-pooling layer over LSTM outputs (batch, time, features) in its own module: the weight is (features, 1) and the bias (time, 1), so the energies K.tanh(K.dot(x, W) + b) are (batch, time, 1), softmaxed with K.softmax(e, axis=1), multiplied into x and summed over axis 1; a predictor module builds the model and reloads it with the layer as a custom object
# why: correct: the energies have one score per time step and a length-1 last axis, so axis=1 is the time axis the weights must sum over (axis=-1 would normalise a length-1 axis to all ones); additive attention pooling has no 1/sqrt(d) scale; what a naive linter could misread: ATT001 (a softmax over axis 1 of a 3-D tensor), ATT003 (no scale)
# looks-like: ATT001, ATT003
# source: https://github.com/mschongchulshin/fatigue_life_predictor https://github.com/mschongchulshin/fatigue_life_predictor/commit/7c057dc0e22e0d87775ca6cdc0f92d0f3e3171fb fatigue_life_predictor/attention.py
import tensorflow.keras.backend as K
from tensorflow.keras.layers import Layer


class TimeAttention(Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)

    def build(self, input_shape):
        self.W = self.add_weight(name="att_weight", shape=(input_shape[-1], 1), initializer="glorot_uniform", trainable=True)
        self.b = self.add_weight(name="att_bias", shape=(input_shape[1], 1), initializer="zeros", trainable=True)
        super().build(input_shape)

    def call(self, x):
        e = K.tanh(K.dot(x, self.W) + self.b)  # (batch, time, 1)
        a = K.softmax(e, axis=1)
        pooled = K.sum(x * a, axis=1)
        return pooled, a
