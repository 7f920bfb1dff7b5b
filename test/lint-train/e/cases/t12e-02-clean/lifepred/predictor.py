import numpy as np
from tensorflow.keras import Model
from tensorflow.keras.layers import LSTM, Dense, Input
from tensorflow.keras.models import load_model

from lifepred.pooling import TimeAttention


def build_model(n_timesteps: int = 50, n_features: int = 2) -> Model:
    inp = Input(shape=(n_timesteps, n_features))
    h = LSTM(64, return_sequences=True)(inp)
    pooled, weights = TimeAttention()(h)
    out = Dense(1)(pooled)
    return Model(inp, [out, weights])


def reload(path: str) -> Model:
    return load_model(path, custom_objects={"TimeAttention": TimeAttention})


def predict_life(model: Model, series: np.ndarray, n_timesteps: int = 50) -> float:
    x = series[:n_timesteps].reshape(1, n_timesteps, -1)
    y, _ = model.predict(x)
    return float(y[0][0])
