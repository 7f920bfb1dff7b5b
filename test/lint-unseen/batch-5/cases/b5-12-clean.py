# case: b5-12-clean
# modelled-on: lsdefine/attention-is-all-you-need-keras https://github.com/lsdefine/attention-is-all-you-need-keras/commit/c9c0277aa573227ab0a40d4d62e00fb0fd176d56
# label: correct
# class: clean
# pattern: a Keras functional-API transformer: masks are float 0/1 tensors of shape [B, Q, K] with 1 = attend (a padding mask from not_equal(k, 0) spread over the queries with batch_dot, and a subsequent mask from cumsum(eye(L, batch_shape=[B]), axis=1)); the attention computes batch_dot(q, k, axes=[2, 2]) divided by sqrt(d_k) in a Lambda, adds (-1e9) * (1 - mask), and applies Activation('softmax') over the last axis; the heads are folded into the batch axis head-major ([h*B, len, d_k]), so the mask is tiled h times along axis 0
# why: correct: cumsum over axis 1 of a batched identity puts ones at j <= i (row i sees keys 0..i; the maintainer confirmed in issue #6 that the cumsum is oriented this way), (1 - mask) * -1e9 is added where the mask is 0, and batch_dot over axes [2, 2] contracts the feature axes of q and k (no transpose needed)
# looks-like: ATT002, ATT005, ATT006, ATT007
# source: https://github.com/lsdefine/attention-is-all-you-need-keras https://github.com/lsdefine/attention-is-all-you-need-keras/commit/c9c0277aa573227ab0a40d4d62e00fb0fd176d56 transformer.py
import tensorflow as tf
import tensorflow.keras.backend as K
from tensorflow.keras.layers import Activation, Add, Dense, Dropout, Lambda, TimeDistributed


class DotAttention:
    def __init__(self, p_drop=0.1):
        self.dropout = Dropout(p_drop)

    def __call__(self, q, k, v, mask):
        # q, k, v: [B*h, len, d_k]; mask: [B*h, len_q, len_k], 1 = attend
        temper = tf.sqrt(tf.cast(tf.shape(k)[-1], dtype="float32"))
        attn = Lambda(lambda x: K.batch_dot(x[0], x[1], axes=[2, 2]) / x[2])([q, k, temper])  # [B*h, q, k]
        if mask is not None:
            neg = Lambda(lambda x: (-1e9) * (1.0 - K.cast(x, "float32")))(mask)
            attn = Add()([attn, neg])
        attn = Activation("softmax")(attn)
        attn = self.dropout(attn)
        out = Lambda(lambda x: K.batch_dot(x[0], x[1]))([attn, v])
        return out, attn


class HeadsInBatchAttention:
    def __init__(self, n_head, d_model, p_drop):
        self.n_head = n_head
        self.d_k = d_model // n_head
        self.wq = Dense(n_head * self.d_k, use_bias=False)
        self.wk = Dense(n_head * self.d_k, use_bias=False)
        self.wv = Dense(n_head * self.d_k, use_bias=False)
        self.attend = DotAttention(p_drop)
        self.wo = TimeDistributed(Dense(d_model))

    def __call__(self, q, k, v, mask=None):
        h = self.n_head

        def split(x):
            s = tf.shape(x)  # [B, len, h*d_k] -> [h*B, len, d_k]
            x = tf.reshape(x, [s[0], s[1], h, s[2] // h])
            x = tf.transpose(x, [2, 0, 1, 3])
            return tf.reshape(x, [-1, s[1], s[2] // h])

        def merge(x):
            s = tf.shape(x)  # [h*B, len, d_k] -> [B, len, h*d_k]
            x = tf.reshape(x, [h, -1, s[1], s[2]])
            x = tf.transpose(x, [1, 2, 0, 3])
            return tf.reshape(x, [-1, s[1], h * s[2]])

        qs, ks, vs = Lambda(split)(self.wq(q)), Lambda(split)(self.wk(k)), Lambda(split)(self.wv(v))
        if mask is not None:
            # one copy of the [B, Q, K] mask per head, head-major like split()
            mask = Lambda(lambda x: tf.tile(x, [h, 1, 1]))(mask)
        head, attn = self.attend(qs, ks, vs, mask=mask)
        return self.wo(Lambda(merge)(head)), attn


def pad_mask(q, k):
    """[B, Q, K]: 1 where the key is not padding."""
    ones = K.expand_dims(K.ones_like(q, "float32"), -1)
    keep = K.cast(K.expand_dims(K.not_equal(k, 0), 1), "float32")
    return K.batch_dot(ones, keep, axes=[2, 1])


def subsequent_mask(s):
    """[B, Q, K]: lower triangle, the i-th row has i + 1 ones."""
    n = tf.shape(s)[1]
    b = tf.shape(s)[:1]
    return K.cumsum(tf.eye(n, batch_shape=b), 1)


def decoder_self_mask(tgt_seq):
    pad = Lambda(lambda x: pad_mask(x, x))(tgt_seq)
    sub = Lambda(subsequent_mask)(tgt_seq)
    return Lambda(lambda x: K.minimum(x[0], x[1]))([pad, sub])
