# case: softmax-snli-keras-flatten-dense-softmax
# modelled-on: shyamupa/snli-entailment https://github.com/shyamupa/snli-entailment/commit/43927fe19b56d09358231ae4c889488f1e31945e
# label: correct
# class: fixed
# pattern: Keras functional word-by-word attention over the premise; a linear TimeDistributed(Dense(1)) score of shape (batch, L, 1), flattened to (batch, L) and normalised by a Dense(L) layer whose activation is the softmax
# why: the fix of commit 43927fe: the softmax now runs over the L premise positions of the flattened scores, so alpha is a distribution over the premise; the final Dense(3, softmax) is the classifier
# looks-like: ATT001, ATT003
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

    alpha = layers.TimeDistributed(layers.Dense(1, activation="linear"))(M)  # (batch, L, 1)
    alpha = layers.Flatten()(alpha)  # (batch, L)
    alpha = layers.Dense(L, activation="softmax")(alpha)  # (batch, L)

    r = layers.Dot(axes=(1, 1))([alpha, Y])  # (batch, k)
    h_star = layers.Activation("tanh")(
        layers.Add()([layers.Dense(k)(r), layers.Dense(k)(h_n)])
    )
    out = layers.Dense(3, activation="softmax")(h_star)
    return keras.Model([premise, hypothesis], out)
