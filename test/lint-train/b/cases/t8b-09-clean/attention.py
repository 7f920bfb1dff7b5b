# case: t8b-09-clean
# modelled-on: henriettebs/IDATT2502_project https://github.com/henriettebs/IDATT2502_project/commit/a401d8fee2e0a0c082e3ca390166c03dfeb70349
# label: correct
# class: clean
# pattern: a stock-price forecasting project: a Keras custom attention layer after an LSTM(return_sequences=True) scores each time step with tanh(x W + b) where W is (features, 1) and b is (timesteps, 1), squeezes the length-1 axis, softmaxes with the backend default axis, expands it back and sums the weighted steps; a model module in another file adds the layer to a Sequential model when attention is switched on
# why: correct: after K.squeeze(e, axis=-1) the scores are (batch, timesteps), so K.softmax's default last axis is the time axis; the weights are expanded back to (batch, timesteps, 1) only to broadcast over the features; a single score per step needs no 1/sqrt(d)
# looks-like: ATT001, ATT003
# source: https://github.com/henriettebs/IDATT2502_project https://github.com/henriettebs/IDATT2502_project/commit/a401d8fee2e0a0c082e3ca390166c03dfeb70349 src/layers/attention.py
from keras import backend as K
from keras.layers import Layer


class attention(Layer):
    def __init__(self, **kwargs):
        super(attention, self).__init__(**kwargs)

    def build(self, input_shape):
        # input_shape: (batch, timesteps, features)
        self.W = self.add_weight(name="attention_weight", shape=(input_shape[-1], 1), initializer="random_normal", trainable=True)
        self.b = self.add_weight(name="attention_bias", shape=(input_shape[1], 1), initializer="zeros", trainable=True)
        super(attention, self).build(input_shape)

    def call(self, x):
        e = K.tanh(K.dot(x, self.W) + self.b)  # (batch, timesteps, 1)
        e = K.squeeze(e, axis=-1)  # (batch, timesteps)
        alpha = K.softmax(e)
        alpha = K.expand_dims(alpha, axis=-1)  # (batch, timesteps, 1)
        context = x * alpha
        return K.sum(context, axis=1)  # (batch, features)
