import numpy as np
from keras.layers import LSTM, Dense, Dropout
from keras.models import Sequential
from keras.optimizers import Adam

from attention import attention


def build_model(n_steps: int, n_features: int, add_attention: bool):
    model = Sequential()
    if add_attention:
        model.add(LSTM(50, return_sequences=True, input_shape=(n_steps, n_features)))
        model.add(attention())
    else:
        model.add(LSTM(50, return_sequences=False, input_shape=(n_steps, n_features)))
    model.add(Dropout(0.3))
    model.add(Dense(1))
    model.compile(optimizer=Adam(learning_rate=0.0001), loss="mean_squared_error")
    return model


def split_sequence(sequence, n_steps: int):
    X, y = [], []
    for i in range(len(sequence) - n_steps):
        X.append(sequence[i : i + n_steps])
        y.append(sequence[i + n_steps])
    return np.array(X)[..., None], np.array(y)
