# case: b61-02-clean
# modelled-on: eastmountyxz/AI-for-TensorFlow https://github.com/eastmountyxz/AI-for-TensorFlow/commit/1d047af81f555dfbffa721721b96c15ebd5ab92c
# label: correct
# class: clean
# pattern: a Keras news classifier: embedding, bidirectional LSTM over 600 pre-padded tokens, a dense layer, then a custom additive attention-pooling layer whose score is `tanh(x W + b) v`, shaped (batch, steps, 1), normalised by `K.softmax(score, axis=1)` and used to sum the steps into one vector; the layer has no mask and no 1/sqrt(d) factor
# why: correct: the scores are (batch, steps, 1), so axis 1 is the time axis and the softmax gives one weight per step that sums to one over the steps (axis -1 would be the length-1 axis, where every weight would be 1); additive attention pooling carries no 1/sqrt(d) factor in its paper; the classifier is meant to pool over all 600 positions (the padding is a learned embedding of index 0 and no mask is intended)
# looks-like: ATT001, ATT003
# source: https://github.com/eastmountyxz/AI-for-TensorFlow https://github.com/eastmountyxz/AI-for-TensorFlow/commit/1d047af81f555dfbffa721721b96c15ebd5ab92c blog28-CNN-LSTM-GPU/Keras_Attention_LSTM_cnews.py
from tensorflow.keras import backend as K
from tensorflow.keras.layers import LSTM, Bidirectional, Dense, Dropout, Embedding, Input, Layer
from tensorflow.keras.models import Model

VOCAB = 6000
STEPS = 600
CLASSES = 4


class PoolingAttention(Layer):
    """Additive attention that pools a (batch, steps, hidden) sequence into (batch, hidden)."""

    def __init__(self, units=None, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def get_config(self):
        cfg = super().get_config()
        cfg.update({"units": self.units})
        return cfg

    def build(self, input_shape):
        hidden = int(input_shape[-1])
        units = self.units or hidden
        self.proj = self.add_weight(name="proj", shape=(hidden, units), initializer="glorot_uniform")
        self.bias = self.add_weight(name="bias", shape=(units,), initializer="zeros")
        self.context = self.add_weight(name="context", shape=(units, 1), initializer="glorot_uniform")
        super().build(input_shape)

    def call(self, seq):
        hid = K.tanh(K.dot(seq, self.proj) + self.bias)
        score = K.dot(hid, self.context)
        weights = K.softmax(score, axis=1)
        return K.sum(weights * seq, axis=1)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], input_shape[-1])


def build_classifier(units=50):
    tokens = Input(shape=(STEPS,), name="tokens")
    x = Embedding(VOCAB + 1, 256)(tokens)
    x = Bidirectional(LSTM(128, return_sequences=True))(x)
    x = Dropout(0.2)(Dense(128, activation="relu")(x))
    pooled = PoolingAttention(units=units)(x)
    probs = Dense(CLASSES, activation="softmax")(pooled)
    model = Model(tokens, probs)
    model.compile(loss="categorical_crossentropy", optimizer="adam", metrics=["accuracy"])
    return model
