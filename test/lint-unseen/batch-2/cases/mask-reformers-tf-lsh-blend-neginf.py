# case: mask-reformers-tf-lsh-blend-neginf
# modelled-on: cerebroai/reformers https://github.com/cerebroai/reformers/issues/3
# label: buggy
# class: real-bug
# pattern: TF port of a PyTorch LSH attention; every masked_fill(mask, value) of the original became a blend dots * mask + (1 - mask) * value, with the masks still built in masked_fill's convention (True = drop); chunked (batch, chunks, i, j) scores
# why: the blend keeps the scores where the mask is True, so causal attention keeps the future keys and the self mask keeps only the token itself (the same repository's PyTorch version fills where the mask is True); and where the mask is True, (1 - mask) * -inf is 0 * -inf = NaN, so the scores are NaN (issue #3: "causes nan output", fixed for the reporter by -1e9)
# source: https://github.com/cerebroai/reformers https://github.com/cerebroai/reformers/issues/3 reformers/TFefficient_attention.py
import tensorflow as tf


def look_one_back(x):
    # x: (batch, chunks, chunk_len, ...) -> (batch, chunks, 2 * chunk_len, ...)
    x_extra = tf.concat([x[:, -1:, ...], x[:, :-1, ...]], axis=1)
    return tf.concat([x, x_extra], axis=2)


def make_unit_length(x, epsilon=1e-6):
    norm = tf.norm(x, ord=2, axis=-1, keepdims=True)
    return x / (norm + epsilon)


class TFLSHAttentionChunks(tf.keras.layers.Layer):
    def __init__(self, causal=False, **kwargs):
        super().__init__(**kwargs)
        self.causal = causal

    def call(self, sqk, sv, st, n_chunks):
        # sqk, sv: (batch, seqlen, dim) already sorted by bucket; st: (batch, seqlen) original positions
        batch_size = tf.shape(sqk)[0]
        dim = sqk.shape[-1]
        bq_t = bkv_t = tf.reshape(st, (batch_size, n_chunks, -1))  # (b, c, l)
        bq = tf.reshape(sqk, (batch_size, n_chunks, -1, dim))  # (b, c, l, d)
        bk = make_unit_length(bq)
        bv = tf.reshape(sv, (batch_size, n_chunks, -1, dim))

        bk = look_one_back(bk)  # (b, c, 2l, d)
        bv = look_one_back(bv)
        bkv_t = look_one_back(bkv_t)  # (b, c, 2l)

        dots = tf.einsum("bhie,bhje->bhij", bq, bk) * (dim ** -0.5)  # (b, c, l, 2l)

        if self.causal:
            future = bq_t[:, :, :, None] < bkv_t[:, :, None, :]  # True where the key comes later
            future_f = tf.cast(future, tf.float32)
            dots = tf.math.multiply(dots, future_f) + (1 - future_f) * float("-inf")  # expect: ATT002, ATT007

        # attend to self only when nothing else is available
        is_self = tf.cast(bq_t[:, :, :, None] == bkv_t[:, :, None, :], tf.float32)
        dots = tf.math.multiply(dots, is_self) + (1 - is_self) * (-1e5)  # expect: ATT002

        dots_logsumexp = tf.math.reduce_logsumexp(dots, axis=-1, keepdims=True)
        weights = tf.exp(dots - dots_logsumexp)  # (b, c, l, 2l)
        out = tf.einsum("buij,buje->buie", weights, bv)  # (b, c, l, d)
        return tf.reshape(out, (batch_size, -1, dim))
