# case: t10d-10-clean
# modelled-on: charlesdong1991/interpretable-han-for-document-classification-with-keras https://github.com/charlesdong1991/interpretable-han-for-document-classification-with-keras/commit/af3ece0cbce9328f66916cc050462a4edbe12d8b
# label: correct
# class: clean
# pattern: a hierarchical attention network in Keras: a word encoder (embedding, bidirectional GRU, time-distributed dense, attention) applied per sentence with TimeDistributed, then a sentence encoder with the same attention layer; the layer scores each step against a learned context vector through a helper in another module that squeezes K.dot(x, expand_dims(u)) to (batch, time_steps), takes K.softmax over that 2-D tensor, expands the weights back to (batch, time_steps, 1) and sums the weighted inputs over axis=1
# why: correct: the helper squeezes the trailing length-1 axis before the softmax, so the default last axis is the time axis; the weights are expanded again only for the broadcast product; additive attention with a context vector has no scale; what a naive linter could misread: ATT001 (K.softmax with its default axis, next to a length-1 axis squeezed in another file), ATT003 (no scale)
# looks-like: ATT001, ATT003
# source: https://github.com/charlesdong1991/interpretable-han-for-document-classification-with-keras https://github.com/charlesdong1991/interpretable-han-for-document-classification-with-keras/commit/af3ece0cbce9328f66916cc050462a4edbe12d8b han/attention.py
from keras.layers import GRU, Bidirectional, Dense, Embedding, Input, TimeDistributed
from keras.models import Model

from han.attention import ContextAttention

DENSE_SIZE = 100


def build(max_sents, max_words, vocab, embed_dim=100, word_dim=100, sent_dim=100):
    word_in = Input(shape=(max_words,))
    x = Embedding(vocab, embed_dim)(word_in)
    x = Bidirectional(GRU(word_dim // 2, return_sequences=True))(x)
    x = TimeDistributed(Dense(DENSE_SIZE))(x)
    word_model = Model(word_in, ContextAttention(name="word_attention")(x))

    doc_in = Input(shape=(max_sents, max_words))
    s = TimeDistributed(word_model)(doc_in)
    s = Bidirectional(GRU(sent_dim // 2, return_sequences=True))(s)
    s = TimeDistributed(Dense(DENSE_SIZE))(s)
    doc = ContextAttention(name="sent_attention")(s)
    out = Dense(2, activation="softmax", name="classification")(doc)
    return Model(doc_in, out)
