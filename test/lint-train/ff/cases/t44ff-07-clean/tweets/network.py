# case: t44ff-07-clean
# modelled-on: khanIqra-K/Sentiment-Analysis-BiLSTM-Attention https://github.com/khanIqra-K/Sentiment-Analysis-BiLSTM-Attention/commit/8068fb189f3cc7107023afe306d8b7bc6fe8ace8
# label: correct
# class: clean
# pattern: a Keras functional BiLSTM with attention built from layers: `Dense(1, tanh)` scores (batch, SEQ_LEN, 1), `Flatten` to (batch, SEQ_LEN), `Activation('softmax')` (the last axis), `RepeatVector(2 * units)` to (batch, 2 * units, SEQ_LEN), `Permute([2, 1])` back to (batch, SEQ_LEN, 2 * units), `Multiply` with the LSTM outputs and `reduce_sum(axis=1)`; the sizes come from a settings module
# why: correct: after the Flatten the scores hold one value per time step, so the softmax over the last axis normalises over the SEQ_LEN steps; RepeatVector then Permute broadcasts each step's weight across the features, and the sum over axis 1 pools over time with weights that sum to 1
# looks-like: ATT001
# source: https://github.com/khanIqra-K/Sentiment-Analysis-BiLSTM-Attention https://github.com/khanIqra-K/Sentiment-Analysis-BiLSTM-Attention/commit/8068fb189f3cc7107023afe306d8b7bc6fe8ace8 model.py
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers
from tensorflow.keras.models import Model

from .settings import EMB_DIM, RNN_UNITS, SEQ_LEN, VOCAB


def attention_classifier(glove: np.ndarray) -> Model:
    tokens = layers.Input(shape=(SEQ_LEN,))
    h = layers.Embedding(VOCAB, EMB_DIM, weights=[glove], trainable=True)(tokens)
    h = layers.SpatialDropout1D(0.2)(h)
    states = layers.Bidirectional(layers.LSTM(RNN_UNITS, return_sequences=True, dropout=0.3))(h)

    score = layers.Dense(1, activation="tanh")(states)      # (batch, SEQ_LEN, 1)
    score = layers.Flatten()(score)                         # (batch, SEQ_LEN)
    weight = layers.Activation("softmax")(score)
    weight = layers.RepeatVector(RNN_UNITS * 2)(weight)     # (batch, 2 * units, SEQ_LEN)
    weight = layers.Permute([2, 1])(weight)                 # (batch, SEQ_LEN, 2 * units)

    pooled = layers.Multiply()([states, weight])
    context = layers.Lambda(lambda z: tf.reduce_sum(z, axis=1))(pooled)

    h = layers.Dense(128, activation="relu")(context)
    h = layers.Dropout(0.4)(h)
    h = layers.Dense(64, activation="relu")(h)
    h = layers.Dropout(0.3)(h)
    return Model(tokens, layers.Dense(1, activation="sigmoid")(h))
