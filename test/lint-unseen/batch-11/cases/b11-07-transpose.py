# case: b11-07-transpose
# modelled-on: matthew-jurewicz/transformer https://github.com/matthew-jurewicz/transformer/commit/43510f0f5701cf68994ea2f981a5304b660efd1d
# label: buggy
# class: real-bug
# pattern: a transformer encoder written with the Keras backend API as plain functions: scaled dot-product attention on (batch, seq, d_k) head projections, d_k read off the key tensor's shape, keys transposed with K.transpose, softmax of the scaled scores and a product with the values; h heads of width d_model // h built in a loop of TimeDistributed Dense projections and concatenated
# why: buggy: the keys are 3-D (batch, seq, d_k) as the function's own comment in the fix says; K.transpose reverses all three axes, giving (d_k, seq, batch) instead of swapping the last two, and d_k is read from axis 0 of the key shape, which is the batch size, not the key width; the next commit ("bug fixes") reads the last axis and swaps only the last two with permute_dimensions(k, [0, 2, 1]) and batch_dot; the real file read the shape through a layer attribute, written here with K.int_shape
# source: https://github.com/matthew-jurewicz/transformer https://github.com/matthew-jurewicz/transformer/commit/d1188994eea3558ff116993074a4880807a09270 transformer.py
import keras.backend as K
import numpy as np
from keras.layers import Add, BatchNormalization, Concatenate, Conv1D, Dense, TimeDistributed


def scaled_dot_prod_attention(q, k, v):
    d_k = K.int_shape(k)[0]
    scores = K.dot(q, K.transpose(k)) / K.sqrt(float(d_k))  # expect: ATT004, ATT005
    return K.dot(K.softmax(scores), v)


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
