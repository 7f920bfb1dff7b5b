# case: b10-11-clean
# modelled-on: dantegates/attention-is-all-you-need https://github.com/dantegates/attention-is-all-you-need/commit/ffa6897
# label: correct
# class: clean
# pattern: a Keras attention head whose decoder mask is additive: a (T, T) matrix of -1e15 reduced to its strict upper triangle with band_part (upper triangle minus the diagonal) and added to the scaled scores before the softmax activation
# why: band_part(m, 0, -1) keeps the upper triangle including the diagonal and subtracting band_part(m, 0, 0) removes the diagonal (commit ffa6897, "do not include diagonal in mask"), so each query sees itself and the past; the model runs in float32, where -1e15 is finite, and no row is fully masked
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/dantegates/attention-is-all-you-need https://github.com/dantegates/attention-is-all-you-need/commit/ffa6897 model.py
import numpy as np
import tensorflow as tf
from tensorflow.keras import activations
from tensorflow.keras import backend as K
from tensorflow.keras.initializers import RandomNormal
from tensorflow.keras.layers import Layer


class AttentionHead(Layer):
    def __init__(self, d_model, d_k, d_v, activation="softmax", **kwargs):
        self.d_model = d_model
        self.d_k = d_k
        self.d_v = d_v
        self.scalar = np.sqrt(self.d_k)
        self.activation = activations.get(activation)
        super().__init__(**kwargs)

    def build(self, input_shape):
        shape = input_shape[0] if isinstance(input_shape, list) else input_shape
        init = RandomNormal(mean=0.0, stddev=1.0)
        self.W_q = self.add_weight(name="W_q", shape=(shape[-1], self.d_k), initializer=init, trainable=True)
        self.W_k = self.add_weight(name="W_k", shape=(shape[-1], self.d_k), initializer=init, trainable=True)
        self.W_v = self.add_weight(name="W_v", shape=(shape[-1], self.d_v), initializer=init, trainable=True)
        super().build(input_shape)

    def call(self, inputs, masking=False):
        try:
            q, k, v = inputs
        except (TypeError, ValueError):
            q = k = v = inputs
        q_p = K.dot(q, self.W_q)
        k_p = K.dot(k, self.W_k)
        v_p = K.dot(v, self.W_v)
        # K.transpose reverses every axis: (batch, T, d_k) -> (d_k, T, batch); then -> (batch, d_k, T)
        k_t = K.permute_dimensions(K.transpose(k_p), (2, 0, 1))
        weights = K.batch_dot(q_p, k_t) / self.scalar
        if masking:
            weights = self.mask(weights)
        x = self.activation(weights)
        return K.batch_dot(x, v_p)

    @staticmethod
    def mask(x):
        shape = K.shape(x)
        mask = K.zeros((shape[1], shape[2])) + (-1e15)
        mask = tf.linalg.band_part(mask, 0, -1)  # upper triangle of `mask`
        mask -= tf.linalg.band_part(mask, 0, 0)  # remove the diagonal
        return x + mask
