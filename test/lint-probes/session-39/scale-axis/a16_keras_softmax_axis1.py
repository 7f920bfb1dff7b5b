from tensorflow import keras
from tensorflow.keras import layers


def attention_pool_model(vocab, T, d=128):
    inp = keras.Input(shape=(T,))
    x = layers.Embedding(vocab, d)(inp)
    h = layers.Bidirectional(layers.LSTM(d, return_sequences=True))(x)  # (B, T, 2d)
    e = layers.Dense(1, activation="tanh")(h)  # (B, T, 1)
    a = layers.Softmax(axis=1)(e)  # over T
    ctx = layers.Lambda(lambda t: keras.backend.sum(t[0] * t[1], axis=1))([a, h])
    out = layers.Dense(1, activation="sigmoid")(ctx)
    return keras.Model(inp, out)
