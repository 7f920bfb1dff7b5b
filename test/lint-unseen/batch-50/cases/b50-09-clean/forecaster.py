import tensorflow as tf
from tensorflow.keras import Model
from tensorflow.keras.layers import LSTM, Bidirectional, Dense, Input

from temporal_attention import TimeStepAttention

WINDOW = 24
N_SIGNALS = 17
N_OUTPUTS = 16


def build_volume_model(weights_path=None):
    inp = Input(shape=(WINDOW, N_SIGNALS), name="window")
    h = Bidirectional(LSTM(1000, return_sequences=True, activation="tanh"))(inp)
    h = Bidirectional(LSTM(500, return_sequences=True, activation="tanh"))(h)
    h = Bidirectional(LSTM(100, return_sequences=True, activation="tanh"))(h)
    h = TimeStepAttention(name="time_attention")(h)
    for units in (2048, 1024, 1024, 512, 512, 256, 256, 128, 64):
        h = Dense(units, activation="relu")(h)
    out = Dense(N_OUTPUTS)(h)
    model = Model(inputs=inp, outputs=out, name="attention_forecaster")
    if weights_path is not None:
        model.load_weights(weights_path)
    return model


def forecast(model, windows):
    return model.predict(tf.convert_to_tensor(windows, dtype=tf.float32), verbose=0)
