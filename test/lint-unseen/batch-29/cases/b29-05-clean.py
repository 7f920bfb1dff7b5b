# case: b29-05-clean
# modelled-on: shinnew99/modulabs_pyscript https://github.com/shinnew99/modulabs_pyscript/commit/d49c59d30e7381403f3c7cf28d643ed2f1152504
# label: correct
# class: clean
# pattern: course work on neural machine translation in TensorFlow/Keras: a Bahdanau (additive) attention layer: the encoder states h_enc (batch, src_len, units) and the decoder state h_dec expanded to (batch, 1, units) go through Dense layers, score = Dense(1)(tanh(h_dec + h_enc)) of shape (batch, src_len, 1), tf.nn.softmax(score, axis=1), context = reduce_sum(attn * h_enc, axis=1)
# why: correct: the score has shape (batch, src_len, 1), so axis=1 is the source-position axis and the softmax normalises over the encoder positions (axis=-1 would be the singleton axis and give all ones); additive attention has no 1/sqrt(d) scale; the context sums the weighted (projected) encoder states over the same axis
# looks-like: ATT001, ATT003
# source: https://github.com/shinnew99/modulabs_pyscript https://github.com/shinnew99/modulabs_pyscript/commit/d49c59d30e7381403f3c7cf28d643ed2f1152504 11_Translation/attention/bahdanau_attention.py
import tensorflow as tf


class BahdanauAttention(tf.keras.layers.Layer):
    def __init__(self, units):
        super(BahdanauAttention, self).__init__()
        self.w_dec = tf.keras.layers.Dense(units)
        self.w_enc = tf.keras.layers.Dense(units)
        self.w_com = tf.keras.layers.Dense(1)

    def call(self, h_enc, h_dec):
        h_enc = self.w_enc(h_enc)
        h_dec = tf.expand_dims(h_dec, 1)
        h_dec = self.w_dec(h_dec)

        score = self.w_com(tf.nn.tanh(h_dec + h_enc))

        attn = tf.nn.softmax(score, axis=1)
        context_vec = attn * h_enc
        context_vec = tf.reduce_sum(context_vec, axis=1)

        return context_vec, attn
