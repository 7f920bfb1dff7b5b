from keras import backend as K
from keras.layers import Concatenate, Dense, Input, Multiply, Softmax, TimeDistributed
from keras.models import Model

from bidaf.flow import ContextToQuery, QueryToContext
from bidaf.similarity import TrilinearSimilarity


def attention_flow(encoded_context, encoded_question):
    sim = TrilinearSimilarity()([encoded_context, encoded_question])
    c2q = ContextToQuery()([sim, encoded_question])
    q2c = QueryToContext()([sim, encoded_context])
    return Concatenate(axis=-1)([encoded_context, c2q, Multiply()([encoded_context, c2q]), Multiply()([encoded_context, q2c])])


def span_begin(merged, modeled):
    # one score per context word, normalised over the context words
    scores = TimeDistributed(Dense(units=1))(K.concatenate([merged, modeled]))
    return Softmax()(K.squeeze(scores, axis=-1))


def build(emb_dim):
    c = Input(shape=(None, emb_dim))
    q = Input(shape=(None, emb_dim))
    merged = attention_flow(c, q)
    return Model([c, q], [merged, span_begin(merged, merged)])
