# case: t44ff-20-clean
# modelled-on: P-R-A-N-E-S-H/A-Hybrid-CNN-BiLSTM-Attention-Network-for-Smartphone-Based-Human-Activity-Recognition https://github.com/P-R-A-N-E-S-H/A-Hybrid-CNN-BiLSTM-Attention-Network-for-Smartphone-Based-Human-Activity-Recognition/commit/d9886e5d17bb198ca24d2faa916a77b62214bc5e
# label: correct
# class: clean
# pattern: human-activity recognition on (128, 9) sensor windows in Keras: residual conv blocks with squeeze-and-excitation (a sigmoid gate over channels, reshaped to (1, channels) and multiplied in), a BiLSTM, Keras `MultiHeadAttention(query=x, value=x, key=x)` with a residual Add and LayerNorm, a second BiLSTM, then temporal attention: `Dense(64, tanh)`, `Dense(1)` to (batch, time, 1), `Softmax(axis=1)` and a custom layer summing `features * weights` over axis 1
# why: correct: the temporal scores are (batch, time, 1), so the softmax must run over axis 1 (time); the last axis has size 1 and would give all ones; the pooling sums over the same axis 1; the SE gate is a per-channel sigmoid, not a softmax; Keras MultiHeadAttention scales internally
# looks-like: ATT001, ATT003
# source: https://github.com/P-R-A-N-E-S-H/A-Hybrid-CNN-BiLSTM-Attention-Network-for-Smartphone-Based-Human-Activity-Recognition https://github.com/P-R-A-N-E-S-H/A-Hybrid-CNN-BiLSTM-Attention-Network-for-Smartphone-Based-Human-Activity-Recognition/commit/d9886e5d17bb198ca24d2faa916a77b62214bc5e models.py
import tensorflow as tf
from tensorflow.keras import Model, regularizers
from tensorflow.keras import layers as L

WINDOW = (128, 9)
N_ACTIVITIES = 6
L2 = 1e-4


class WeightedTimeSum(L.Layer):
    def call(self, inputs):
        feats, weights = inputs                      # (batch, time, F), (batch, time, 1)
        return tf.reduce_sum(feats * weights, axis=1)


def excite(x, ratio=8):
    ch = x.shape[-1]
    s = L.GlobalAveragePooling1D()(x)
    s = L.Dense(max(ch // ratio, 8), activation="relu", kernel_regularizer=regularizers.l2(L2))(s)
    s = L.Dense(ch, activation="sigmoid", kernel_regularizer=regularizers.l2(L2))(s)
    return L.Multiply()([x, L.Reshape((1, ch))(s)])


def res_block(x, filters, k=5, drop=0.15):
    skip = x
    x = L.Conv1D(filters, k, padding="same", kernel_regularizer=regularizers.l2(L2))(x)
    x = L.SpatialDropout1D(drop)(L.Activation("relu")(L.BatchNormalization()(x)))
    x = L.BatchNormalization()(L.Conv1D(filters, k, padding="same", kernel_regularizer=regularizers.l2(L2))(x))
    x = excite(x)
    if skip.shape[-1] != filters:
        skip = L.BatchNormalization()(L.Conv1D(filters, 1, padding="same")(skip))
    return L.Activation("relu")(L.Add()([x, skip]))


def proposed_model(lr=1e-3):
    signals = L.Input(shape=WINDOW, name="sensor_input")
    x = L.Activation("relu")(L.BatchNormalization()(L.Conv1D(64, 7, padding="same")(signals)))
    x = L.MaxPooling1D(2)(res_block(x, 64, 5, 0.10))
    x = L.MaxPooling1D(2)(res_block(x, 128, 5, 0.15))
    x = res_block(x, 256, 3, 0.15)
    x = L.Bidirectional(L.LSTM(128, return_sequences=True, dropout=0.2))(x)
    mixed = L.MultiHeadAttention(num_heads=4, key_dim=32, dropout=0.1)(query=x, value=x, key=x)
    x = L.LayerNormalization()(L.Add()([x, mixed]))
    x = L.Bidirectional(L.LSTM(64, return_sequences=True, dropout=0.15))(x)
    scores = L.Dense(1)(L.Dense(64, activation="tanh")(x))    # (batch, time, 1)
    weights = L.Softmax(axis=1, name="temporal_attention_weights")(scores)
    x = WeightedTimeSum()([x, weights])
    x = L.Dropout(0.4)(L.BatchNormalization()(L.Dense(256, activation="relu")(x)))
    x = L.Dropout(0.3)(L.Dense(128, activation="relu")(x))
    model = Model(signals, L.Dense(N_ACTIVITIES, activation="softmax")(x))
    model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=lr, clipnorm=1.0),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return model
