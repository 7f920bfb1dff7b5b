# case: b38-10-clean
# modelled-on: thushv89/attention_keras https://github.com/thushv89/attention_keras/commit/97e62e9942fa64d20add0035c2afb0aadbd18463
# label: correct
# class: clean
# pattern: Bahdanau (additive) attention as a Keras layer (a folder: the layer and the NMT model that uses it): the encoder states S (batch, en_len, latent) and each decoder output h_j are scored with v^T tanh(S W + h_j U) inside a K.rnn step function over the decoder time steps; the energies (batch, en_len) go through K.softmax (last axis = encoder positions); a second K.rnn pass forms the context vectors as the energy-weighted sum of the encoder states over axis 1; no mask, no scale
# why: correct: additive attention has no 1/sqrt(d) scale (the tanh bounds the features, as in Bahdanau et al.); inside the step function the energies are 2-D (batch, en_len), so the default last-axis softmax is over the encoder positions, and the context sums the weights against the encoder states over that same axis; every encoder position is real (fixed-length padded one-hot inputs with no mask in the model)
# looks-like: ATT001, ATT003
# source: https://github.com/thushv89/attention_keras https://github.com/thushv89/attention_keras/commit/97e62e9942fa64d20add0035c2afb0aadbd18463 src/layers/attention.py
import tensorflow as tf
from tensorflow.python.keras import backend as K


class AdditiveAttention(tf.keras.layers.Layer):
    """v^T tanh(S.W + h.U) energies, softmax over encoder steps, context = sum_t e_t s_t."""

    def build(self, input_shape):
        enc_shape, dec_shape = input_shape
        latent = enc_shape[2]
        self.W_s = self.add_weight(name='W_s', shape=tf.TensorShape((latent, latent)), initializer='uniform')
        self.U_h = self.add_weight(name='U_h', shape=tf.TensorShape((dec_shape[2], latent)), initializer='uniform')
        self.v = self.add_weight(name='v', shape=tf.TensorShape((latent, 1)), initializer='uniform')
        super().build(input_shape)

    def call(self, inputs):
        enc_seq, dec_seq = inputs

        def energies(dec_step, states):
            enc_full = states[-1]
            projected_enc = K.dot(enc_full, self.W_s)
            projected_dec = K.expand_dims(K.dot(dec_step, self.U_h), 1)
            hidden = K.tanh(projected_enc + projected_dec)
            e = K.squeeze(K.dot(hidden, self.v), axis=-1)
            e = K.softmax(e)
            return e, [e]

        def contexts(e_step, states):
            enc_full = states[-1]
            c = K.sum(enc_full * K.expand_dims(e_step, -1), axis=1)
            return c, [c]

        dummy_e = K.sum(enc_seq, axis=2)
        dummy_c = K.sum(enc_seq, axis=1)
        _, e_all, _ = K.rnn(energies, dec_seq, [dummy_e], constants=[enc_seq])
        _, c_all, _ = K.rnn(contexts, e_all, [dummy_c], constants=[enc_seq])
        return c_all, e_all

    def compute_output_shape(self, input_shape):
        enc_shape, dec_shape = input_shape
        return [
            tf.TensorShape((dec_shape[0], dec_shape[1], enc_shape[2])),
            tf.TensorShape((dec_shape[0], dec_shape[1], enc_shape[1])),
        ]
