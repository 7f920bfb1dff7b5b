# case: b17-07-softmax
# modelled-on: chaycao/self-attention-embedding https://github.com/chaycao/self-attention-embedding/commit/33540ce91a5932ee18b9bbb385903ecc05c7931f
# label: buggy
# class: real-bug
# pattern: a Keras sentiment classifier with two attention layers in one package: a structured self-attentive embedding computes Ws2 tanh(Ws1 H^T) as (batch, maxlen, r), transposes it to (batch, r, maxlen) and applies K.softmax; a single-hop attention layer added in the last commit computes the same chain with a (da, 1) Ws2, giving (batch, maxlen, 1) scores, keeps the transpose commented out and applies K.softmax directly; the model multiplies the BiLSTM states by those weights before a CNN
# why: buggy: K.softmax normalises over the last axis, which for the single-hop layer is the length-1 axis, so every weight is exactly 1.0 and H is passed through unchanged; the layer's own comment (A = softmax(Ws2 tanh(Ws1 H^T))) and its sibling layer normalise over maxlen, which the sibling reaches by transposing first (the transpose is commented out here)
# source: https://github.com/chaycao/self-attention-embedding https://github.com/chaycao/self-attention-embedding/commit/33540ce91a5932ee18b9bbb385903ecc05c7931f layers/attention.py, layers/selfAttentiveEmbedding.py, models/cnn_blstm_attModel.py
import tensorflow as tf
from keras import backend as K
from keras.engine.topology import Layer


class Attention(Layer):
    def __init__(self, da, **kwargs):
        self.da = da
        super().__init__(**kwargs)

    def compute_mask(self, inputs, input_mask=None):
        return None

    def build(self, input_shape):
        self.ws1 = self.add_weight(name="Ws1", shape=(self.da, input_shape[-1]), initializer="glorot_uniform", trainable=True)
        self.b = self.add_weight(name="b", shape=(self.da,), initializer="glorot_uniform", trainable=True)
        self.ws2 = self.add_weight(name="Ws2", shape=(self.da, 1), initializer="glorot_uniform", trainable=True)
        super().build(input_shape)

    def call(self, H):
        # A = softmax(Ws2 * tanh(Ws1 * H.T))
        A = K.dot(H, tf.transpose(self.ws1))  # (?, maxlen, da)
        A = K.tanh(A + self.b)
        A = K.dot(A, self.ws2)  # (?, maxlen, 1)
        # A = tf.transpose(A, [0, 2, 1])
        A = K.softmax(A)  # expect: ATT001
        return A

    def compute_output_shape(self, input_shape):
        return (None, input_shape[1], 1)
