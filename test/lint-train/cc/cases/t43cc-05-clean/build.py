import tensorflow as tf
from tensorflow.keras import layers

from blocks import encoder_block
from self_attn import SequenceSelfAttention

SEQ_LEN = 100
LSTM_UNITS = 256
DENSE1, DENSE2 = 128, 64
HEAD_SIZE, NUM_HEADS, FF_DIM, N_BLOCKS = 64, 4, 128, 2
DROPOUT = 0.25


def lstm_model(n_features, n_out, use_attention=True):
    model = tf.keras.models.Sequential()
    model.add(layers.Input(shape=(SEQ_LEN, n_features)))
    model.add(layers.LSTM(LSTM_UNITS, return_sequences=True, dropout=DROPOUT))
    if use_attention:
        model.add(SequenceSelfAttention(SEQ_LEN))
        model.add(layers.Dense(DENSE1, activation='sigmoid'))
    else:
        model.add(layers.TimeDistributed(layers.Dense(DENSE1, activation='sigmoid')))
    model.add(layers.Dense(DENSE2, activation='sigmoid'))
    model.add(layers.Dropout(DROPOUT))
    model.add(layers.Dense(n_out, activation='sigmoid' if n_out == 1 else 'softmax'))
    return model


def transformer_model(n_features, n_out):
    inputs = tf.keras.Input(shape=(SEQ_LEN, n_features))
    x = inputs
    for _ in range(N_BLOCKS):
        x = encoder_block(x, HEAD_SIZE, NUM_HEADS, FF_DIM, DROPOUT)
    x = layers.Dense(64, activation='relu')(x)
    outputs = layers.Dense(n_out, activation='sigmoid' if n_out == 1 else 'softmax')(x)
    return tf.keras.Model(inputs, outputs)
