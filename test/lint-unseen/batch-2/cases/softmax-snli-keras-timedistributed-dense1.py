# case: softmax-snli-keras-timedistributed-dense1
# modelled-on: shyamupa/snli-entailment https://github.com/shyamupa/snli-entailment/commit/43927fe19b56d09358231ae4c889488f1e31945e
# label: buggy
# class: real-bug
# pattern: Keras functional word-by-word attention (Rocktaschel et al.) over the premise; the attention scores come out of TimeDistributed(Dense(1)) as (batch, L, 1) and the softmax is the Dense layer's activation, so it runs over the last axis of length 1
# why: the softmax of a length-1 axis is 1 for every position, so alpha is all ones and r sums the premise states instead of weighting them; reported in keras-team/keras#2067 by a reader, acknowledged by the author ("Good catch!") and fixed in commit 43927fe by a linear score, Flatten and a softmax over the L positions
# source: https://github.com/shyamupa/snli-entailment https://github.com/shyamupa/snli-entailment/commit/43927fe19b56d09358231ae4c889488f1e31945e amodel.py
from tensorflow import keras
from tensorflow.keras import layers

L = 20  # premise length
N = 300  # LSTM units
VOCAB = 20000


def build_model(emb_dim=300, k=N):
    premise = keras.Input(shape=(L,), dtype="int32")
    hypothesis = keras.Input(shape=(L,), dtype="int32")
    embed = layers.Embedding(VOCAB, emb_dim)

    Y = layers.LSTM(k, return_sequences=True)(embed(premise))  # (batch, L, k)
    h_n = layers.LSTM(k)(embed(hypothesis))  # (batch, k)

    WY = layers.TimeDistributed(layers.Dense(k, kernel_regularizer=keras.regularizers.l2(0.01)))(Y)  # (batch, L, k)
    Wh = layers.RepeatVector(L)(layers.Dense(k, kernel_regularizer=keras.regularizers.l2(0.01))(h_n))  # (batch, L, k)
    M = layers.Activation("tanh")(layers.Add()([WY, Wh]))  # (batch, L, k)

    alpha = layers.TimeDistributed(layers.Dense(1, activation="softmax"))(M)  # expect: ATT001
    alpha = layers.Reshape((L,))(alpha)  # (batch, L)

    r = layers.Dot(axes=(1, 1))([alpha, Y])  # (batch, k)
    h_star = layers.Activation("tanh")(
        layers.Add()([layers.Dense(k)(r), layers.Dense(k)(h_n)])
    )
    out = layers.Dense(3, activation="softmax")(h_star)
    return keras.Model([premise, hypothesis], out)
