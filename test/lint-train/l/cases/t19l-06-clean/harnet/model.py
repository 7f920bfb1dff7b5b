import numpy as np
import tensorflow as tf

from .mha import EncoderLayer
from .sensor_attention import SensorAttention


def positional_table(length, d_model):
    pos = np.arange(length)[:, None]
    i = np.arange(d_model)[None, :]
    ang = pos / np.power(10000, (2 * (i // 2)) / np.float32(d_model))
    ang[:, 0::2] = np.sin(ang[:, 0::2])
    ang[:, 1::2] = np.cos(ang[:, 1::2])
    return tf.cast(ang[None, ...], tf.float32)


def create_model(n_timesteps, n_features, n_outputs, dff=512, d_model=128, nh=4, dropout_rate=0.2):
    inputs = tf.keras.layers.Input(shape=(n_timesteps, n_features))
    weighted, _ = SensorAttention(n_filters=128, kernel_size=3, dilation_rate=2)(inputs)
    x = tf.keras.layers.Conv1D(d_model, 1, activation="relu")(weighted)
    x *= tf.math.sqrt(tf.cast(d_model, tf.float32))
    x = x + positional_table(n_timesteps, d_model)
    x = tf.keras.layers.Dropout(dropout_rate)(x)
    x = EncoderLayer(d_model, nh, dff, dropout_rate)(x)
    x = EncoderLayer(d_model, nh, dff, dropout_rate)(x)
    x = tf.keras.layers.GlobalAveragePooling1D()(x)
    x = tf.keras.layers.Dense(n_outputs * 4, activation="relu")(x)
    outputs = tf.keras.layers.Dense(n_outputs, activation="softmax")(x)
    return tf.keras.Model(inputs=inputs, outputs=outputs)
