import keras
from keras import backend as K
from keras.layers import Layer

from han.ops import k_dot


class ContextAttention(Layer):
    """Attention with a learned context vector over a (batch, time_steps, dim) input."""

    def __init__(self, bias=True, **kwargs):
        self.bias = bias
        super().__init__(**kwargs)

    def build(self, input_shape):
        assert len(input_shape) == 3
        self.W = self.add_weight(name="W", shape=(input_shape[-1], input_shape[-1]), initializer="uniform")
        self.b = self.add_weight(name="bias", shape=(input_shape[-1],), initializer="zeros")
        self.u = self.add_weight(name="context_vector", shape=(input_shape[-1],), initializer="uniform")
        super().build(input_shape)

    def weights_for(self, x):
        u_xw = K.dot(x, self.W)
        if self.bias:
            u_xw += self.b
        u_tw = K.tanh(u_xw)
        a_tw = k_dot(u_tw, self.u)  # (batch, time_steps)
        return K.softmax(a_tw)

    def call(self, x):
        a = K.expand_dims(self.weights_for(x))  # (batch, time_steps, 1)
        weighted = keras.layers.Multiply()([x, a])
        return K.sum(weighted, axis=1)

    def compute_output_shape(self, input_shape):
        return input_shape[0], input_shape[-1]
