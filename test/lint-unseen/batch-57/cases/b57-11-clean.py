# case: b57-11-clean
# modelled-on: imak6/2025 https://github.com/imak6/2025/commit/2ed56861b62f3459ca7277b1b3683780aa028a75
# label: correct
# class: clean
# pattern: a Keras stock-price forecaster: two stacked LSTMs over a 60-day window, Keras AdditiveAttention applied to the LSTM sequence as both query and value, the attention output multiplied element-wise with the LSTM sequence, flattened and regressed to the next closing price; predictions for later days roll the window forward
# why: correct: AdditiveAttention([query, value]) computes Bahdanau scores with its own softmax over the value steps and returns a (batch, 60, 50) context sequence; the Multiply that follows gates the LSTM features with that context, it is not a mask applied to attention weights; there is no padding (fixed 60-step windows) and no causal constraint is needed because the whole window is the past; additive attention has no 1/sqrt(d) scale (the layer's use_scale adds a learned one)
# looks-like: ATT003, ATT006
# source: https://github.com/imak6/2025 https://github.com/imak6/2025/commit/2ed56861b62f3459ca7277b1b3683780aa028a75 attention_mechanism/stock_pred_attnmech.py
import numpy as np
import tensorflow as tf
import keras
from tensorflow.keras import layers

WINDOW = 60


def make_windows(scaled: np.ndarray, window: int = WINDOW):
    xs, ys = [], []
    for end in range(window, len(scaled)):
        xs.append(scaled[end - window:end, 0])
        ys.append(scaled[end, 0])
    if not xs:
        raise ValueError(f"need more than {window} points, got {len(scaled)}")
    return np.asarray(xs)[..., None], np.asarray(ys)


def build_forecaster(window: int = WINDOW, units: int = 50) -> keras.Model:
    prices = layers.Input(shape=(window, 1))
    seq = layers.LSTM(units, return_sequences=True)(prices)
    seq = layers.LSTM(units, return_sequences=True)(seq)
    context = layers.AdditiveAttention(name="attention_weight")([seq, seq])
    gated = layers.Multiply()([seq, context])
    flat = layers.Flatten()(gated)
    flat = layers.BatchNormalization()(layers.Dropout(0.2)(flat))
    model = keras.Model(prices, layers.Dense(1)(flat))
    model.compile(optimizer="adam", loss="mean_squared_error")
    return model


def fit(model: keras.Model, x, y, epochs: int = 50, batch_size: int = 64):
    stop = keras.callbacks.EarlyStopping(monitor="val_loss", patience=15, mode="min", restore_best_weights=True)
    return model.fit(x, y, epochs=epochs, batch_size=batch_size, validation_split=0.2, callbacks=[stop], verbose=0)


def roll_forward(model: keras.Model, last_window: np.ndarray, days: int) -> np.ndarray:
    """Predict `days` closing prices by feeding each prediction back into the window."""
    window = tf.convert_to_tensor(last_window.reshape(1, -1, 1), dtype=tf.float32)
    preds = []
    for _ in range(days):
        nxt = model(window, training=False)
        preds.append(float(nxt[0, 0]))
        window = tf.concat([window[:, 1:, :], tf.reshape(nxt, (1, 1, 1))], axis=1)
    return np.asarray(preds)
