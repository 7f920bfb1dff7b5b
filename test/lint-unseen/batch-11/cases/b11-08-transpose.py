# case: b11-08-transpose
# modelled-on: matthew-jurewicz/transformer https://github.com/matthew-jurewicz/transformer/commit/d1188994eea3558ff116993074a4880807a09270
# label: correct
# class: fixed
# pattern: the same Keras-backend encoder after the fix: the key width is read from the last axis of the (batch, seq, d_k) keys, the keys are transposed with K.permute_dimensions(k, pattern=[0, 2, 1]) and the products are batch_dot, so each head's scores are (batch, seq, seq), softmaxed over the last axis
# why: correct: permute_dimensions with [0, 2, 1] swaps only the sequence and feature axes of the 3-D keys, and the last axis of the key shape is the per-head width d_model // h; K.softmax normalises the last axis, the keys; what a naive linter could misread: ATT004 (a width read off a Keras shape inside the attention function), ATT005 (a hand-written key permutation)
# looks-like: ATT004, ATT005
# source: https://github.com/matthew-jurewicz/transformer https://github.com/matthew-jurewicz/transformer/commit/d1188994eea3558ff116993074a4880807a09270 transformer.py
import keras.backend as K
import numpy as np
from keras.layers import Add, BatchNormalization, Concatenate, Conv1D, Dense, TimeDistributed


def scaled_dot_prod_attention(q, k, v):
    # k: (batch, seq, d_k)
    d_k = K.int_shape(k)[-1]
    k_t = K.permute_dimensions(k, pattern=[0, 2, 1])
    scores = K.batch_dot(q, k_t) / K.sqrt(float(d_k))
    return K.batch_dot(K.softmax(scores), v)


def multi_head_attention(q, k, v, d_model, h=8):
    d_k = d_v = d_model // h
    heads = []
    for _ in range(h):
        q_proj = TimeDistributed(Dense(units=d_k, use_bias=False))(q)
        k_proj = TimeDistributed(Dense(units=d_k, use_bias=False))(k)
        v_proj = TimeDistributed(Dense(units=d_v, use_bias=False))(v)
        heads.append(scaled_dot_prod_attention(q_proj, k_proj, v_proj))
    joined = Concatenate()(heads)
    return TimeDistributed(Dense(d_model, use_bias=False))(joined)


def feed_forward(x, d_ff=2048):
    d_model = K.int_shape(x)[-1]
    hidden = Conv1D(filters=d_ff, kernel_size=1, activation="relu")(x)
    return Conv1D(filters=d_model, kernel_size=1)(hidden)


def positions(d_model, seq_len):
    pos = np.arange(d_model)
    return [np.sin(pos / (10000 ** (2 * i / d_model))) if i % 2 == 0 else np.cos(pos / (10000 ** (2 * i / d_model))) for i in range(seq_len)]


def encoder(x):
    d_model = K.int_shape(x)[-1]
    att = multi_head_attention(x, x, x, d_model)
    norm = BatchNormalization()(Add()([att, x]))
    ffn = feed_forward(norm)
    return BatchNormalization()(Add()([ffn, norm]))
