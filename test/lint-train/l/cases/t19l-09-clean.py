# case: t19l-09-clean
# modelled-on: vikua/keras-attention-models https://github.com/vikua/keras-attention-models/commit/681c3020286df7da62c2022f0d5b103e1acc6edf
# label: correct
# class: clean
# pattern: a Keras Luong-attention decoder written as a Wrapper around an LSTM layer and run with K.rnn: at each step the wrapped cell produces the decoder output (batch, dec_dim); dot and general scores transpose the encoder outputs with tf.transpose(perm=[0, 2, 1]) and multiply the expanded decoder output (batch, 1, dim) with them, a concat score tiles the decoder output over the time steps, each giving (batch, 1, time_steps); tf.nn.softmax is applied with its default axis, the context is tf.matmul(weights, encoder_outputs) and input feeding passes the context to the next step
# why: correct: every score is (batch, 1, time_steps), so the default last axis is the encoder time axis; perm=[0, 2, 1] transposes the encoder outputs (the keys) for the batched product (batch, 1, d) @ (batch, d, T); Luong's dot / general / concat scores are unscaled by design
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/vikua/keras-attention-models https://github.com/vikua/keras-attention-models/commit/681c3020286df7da62c2022f0d5b103e1acc6edf keras-attention-models/layers.py
import tensorflow as tf
from keras import backend as K
from keras.layers.wrappers import Wrapper


class LuongDecoder(Wrapper):
    def __init__(self, layer, attn_type="dot", **kwargs):
        super().__init__(layer, **kwargs)
        self.attn_type = attn_type

    def build(self, input_shape):
        dec_shape, enc_shape = input_shape[0], input_shape[1]
        _, self.time_steps, self.enc_dim = enc_shape
        self.layer.build((dec_shape[0], dec_shape[2] + self.enc_dim))
        self.dec_dim = self.layer.units
        wa_shape = (self.enc_dim, self.dec_dim) if self.attn_type == "general" else (self.enc_dim + self.dec_dim, self.dec_dim)
        self.W_a = self.add_weight(name="W_a", shape=wa_shape, initializer="glorot_uniform")
        self.V_a = self.add_weight(name="V_a", shape=(self.dec_dim, 1), initializer="glorot_uniform")
        super().build()

    def call(self, inputs, mask=None):
        decoder_inputs, encoder_outputs, context = inputs[0], inputs[1], inputs[2]
        encoder_states = inputs[3:]

        def dot_score(enc, dec):
            enc_t = tf.transpose(enc, perm=[0, 2, 1])
            return tf.matmul(tf.expand_dims(dec, axis=1), enc_t)  # (batch, 1, T)

        def general_score(enc, dec):
            wh = tf.transpose(K.dot(enc, self.W_a), perm=[0, 2, 1])
            return tf.matmul(tf.expand_dims(dec, axis=1), wh)

        def concat_score(enc, dec):
            h = tf.tile(tf.expand_dims(dec, 1), [1, self.time_steps, 1])
            e = K.dot(K.tanh(K.dot(tf.concat([h, enc], 2), self.W_a)), self.V_a)
            return tf.expand_dims(K.squeeze(e, axis=-1), 1)

        scorers = {"dot": dot_score, "general": general_score, "concat": concat_score}

        def step(x, states):
            last_context, cell_states = states[0], states[1:]
            out, cell_states = self.layer.cell.call(K.concatenate([x, last_context]), cell_states)
            score = scorers[self.attn_type](encoder_outputs, out)
            weights = tf.nn.softmax(score)
            ctx = tf.squeeze(tf.matmul(weights, encoder_outputs), axis=1)
            weights = tf.squeeze(weights, axis=1)
            return tf.concat([out, ctx, weights], 1), [ctx] + list(cell_states)

        _, outputs, states = K.rnn(step, decoder_inputs, initial_states=[context] + list(encoder_states), mask=mask)
        return [outputs[:, :, : self.dec_dim + self.enc_dim], outputs[:, :, -self.time_steps :]] + list(states)
