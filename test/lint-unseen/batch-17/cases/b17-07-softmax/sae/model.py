from keras import backend as K
from keras.layers import (LSTM, Bidirectional, Conv1D, Dense, Dropout, Embedding, Flatten, GlobalMaxPooling1D, Input,
                          Lambda, MaxPooling1D, concatenate)
from keras.models import Model

from sae.layers.attention import Attention
from sae.layers.self_attentive import SelfAttentiveEmbedding


def build(maxlen, vocab, emb_dim, rnn_units=128, da=64, r=4, classes=2, dropout=0.5):
    inputs = Input(shape=(maxlen,))
    words = Dropout(dropout)(Embedding(vocab, emb_dim)(inputs))
    H = Dropout(dropout)(Bidirectional(LSTM(rnn_units, return_sequences=True), merge_mode="concat")(words))

    A = SelfAttentiveEmbedding(da=da, r=r)(H)  # (?, r, maxlen)
    M = Flatten()(Lambda(lambda t: K.batch_dot(t[0], t[1]))([A, H]))  # (?, r * 2u)

    a = Attention(da=da)(H)  # (?, maxlen, 1)
    weighted = Lambda(lambda t: t[0] * t[1])([H, a])
    C = MaxPooling1D(2)(Conv1D(200, 2, activation="relu")(weighted))
    C = GlobalMaxPooling1D()(Conv1D(200, 3, activation="relu")(C))

    out = Dense(classes, activation="softmax")(concatenate([M, C]))
    return Model(inputs, out)
