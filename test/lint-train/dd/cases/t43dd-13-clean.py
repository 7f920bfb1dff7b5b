# case: t43dd-13-clean
# modelled-on: keon/pointer-networks https://github.com/keon/pointer-networks/commit/394cb4fd3b4b20916b5c6414d664266455cdeea3
# label: correct
# class: clean
# pattern: a Keras pointer network (sorting / TSP): additive attention `V(tanh(W1(enc) + W2(dec)))` with `V = Dense(1)`, so the scores are (batch, T, 1); an optional 0/1 mask added as `mask * -1e9`; `softmax(scores, axis=1)` and a reshape to (batch, T) of pointer probabilities; the decoder state is repeated T times with `K.repeat` inside a `K.rnn` step
# why: correct: the scores have a length-1 last axis, so the softmax must run over axis 1, the T encoder positions the pointer chooses among (a softmax over the last axis would give all ones); the additive mask with a 1 where a position is excluded pushes those scores to -1e9 before the softmax; pointer networks output the attention distribution itself, so there is no product with values
# looks-like: ATT001, ATT002, ATT007
# source: https://github.com/keon/pointer-networks https://github.com/keon/pointer-networks/commit/394cb4fd3b4b20916b5c6414d664266455cdeea3 PointerLSTM.py
import tensorflow.keras.backend as K
from tensorflow import keras
from tensorflow.keras.activations import softmax, tanh
from tensorflow.keras.layers import InputSpec


class PointerScore(keras.layers.Layer):
    def __init__(self, units, name="pointer_score"):
        super().__init__(name=name, trainable=True)
        self.units = units
        self.W_enc = keras.layers.Dense(units, use_bias=False)
        self.W_dec = keras.layers.Dense(units, use_bias=False)
        self.v = keras.layers.Dense(1, use_bias=False)

    def call(self, enc, dec, mask=None):
        e = self.v(tanh(self.W_enc(enc) + self.W_dec(dec)))
        if mask is not None:
            e += mask * -1e9
        probs = softmax(e, axis=1)
        shape = K.shape(probs)
        return K.reshape(probs, (shape[0], shape[1]))


class PointerDecoder(keras.layers.Layer):
    def __init__(self, units, name="pointer", **kwargs):
        super().__init__(name=name, **kwargs)
        self.units = units
        self.score = PointerScore(units)
        self.cell = keras.layers.LSTM(units, return_sequences=False, return_state=True)

    def build(self, input_shape):
        super().build(input_shape)
        self.input_spec = [InputSpec(shape=input_shape)]

    def call(self, x, states=None):
        T = self.input_spec[0].shape[1]
        first = K.repeat(x[:, T - 1, :], T)
        init = states or [K.zeros_like(x[:, 0, : self.units]), K.zeros_like(x[:, 0, : self.units])]
        _, outputs, _ = K.rnn(self.step, first, init, constants=[x], input_length=T)
        return outputs

    def step(self, inp, states):
        T = self.input_spec[0].shape[1]
        enc = states[-1]
        _, h, c = self.cell(K.expand_dims(inp, 1), initial_state=states[:-1])
        return self.score(enc, K.repeat(h, T)), [h, c]
