import tensorflow as tf
from keras import backend as K
from keras.engine.topology import Layer


class SelfAttentiveEmbedding(Layer):
    def __init__(self, da, r, **kwargs):
        self.da = da
        self.r = r
        super().__init__(**kwargs)

    def compute_mask(self, inputs, input_mask=None):
        return None

    def build(self, input_shape):
        self.ws1 = self.add_weight(name="Ws1", shape=(self.da, input_shape[-1]), initializer="glorot_uniform", trainable=True)
        self.ws2 = self.add_weight(name="Ws2", shape=(self.r, self.da), initializer="glorot_uniform", trainable=True)
        super().build(input_shape)

    def call(self, H):
        # A = softmax(Ws2 * tanh(Ws1 * H.T))
        A = K.dot(H, tf.transpose(self.ws1))  # (?, maxlen, da)
        A = K.tanh(A)
        A = K.dot(A, tf.transpose(self.ws2))  # (?, maxlen, r)
        A = tf.transpose(A, [0, 2, 1])  # (?, r, maxlen)
        A = K.softmax(A)
        return A

    def compute_output_shape(self, input_shape):
        return (None, self.r, input_shape[1])
