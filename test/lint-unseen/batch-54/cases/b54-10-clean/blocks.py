from keras import backend as K
from keras.layers import LSTM, Dense
from keras.regularizers import l2


def gate_layer(units, reg=1e-8):
    """Per-feature attention gate: one sigmoid weight in (0, 1) for every CNN feature."""
    return Dense(units, activation="sigmoid", kernel_regularizer=l2(reg), name="attention")


def ones_like_batch(width):
    def build(batch_tensor):
        n = K.shape(batch_tensor)[0]
        return K.tile(K.ones((1, width)), (n, 1))

    return build


def caption_lstm(units, dropout=0.0, reg=1e-8):
    return LSTM(units, return_sequences=False, return_state=True, dropout=dropout,
                recurrent_dropout=dropout, kernel_regularizer=l2(reg), recurrent_regularizer=l2(reg))


def word_projector(widths, reg=1e-8):
    stack = [Dense(w, activation="relu", kernel_regularizer=l2(reg)) for w in widths]

    def apply(x):
        for layer in stack:
            x = layer(x)
        return x

    return apply
