# case: b35-05-clean
# modelled-on: Ananas120/Tacotron2_in_keras https://github.com/Ananas120/Tacotron2_in_keras/commit/ac3125b621560a4a15e9ef82fa47ee055aa95df2
# label: correct
# class: clean
# pattern: a Keras port of Tacotron-2's location-sensitive attention (a personal text-to-speech project): a Layer that holds the encoder outputs as its memory (keys = Dense(units)(memory)), runs K.rnn over the decoder steps with an energy step (additive score v_a . tanh(keys + W q + W_loc conv(previous alignments) + b) summed over the units axis, then K.softmax with no axis) and a second K.rnn with a context step (expand_dims(alignments, 1) matmul values, squeezed); the alignments are cumulated into the next state
# why: correct: the summed energy e_i has shape (batch, encoder_steps), so K.softmax's default last axis is the encoder axis, which is what the alignments must sum over; the context is the alignment-weighted sum of the encoder outputs, (batch, 1, enc) x (batch, enc, dim); additive (Bahdanau-style) attention has no 1/sqrt(d) scale; the cumulative alignments feed only the location features, not the weights
# looks-like: ATT001, ATT003
# source: https://github.com/Ananas120/Tacotron2_in_keras https://github.com/Ananas120/Tacotron2_in_keras/commit/ac3125b621560a4a15e9ef82fa47ee055aa95df2 tacotron/models/new_layers.py
import keras.backend as K
import tensorflow as tf
from keras.layers import Conv1D, Dense, Layer


class LocationSensitiveAttention(Layer):
    def __init__(self, memory, units, filters=32, kernel=31, cumulate=True, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.filters = filters
        self.cumulate = cumulate
        self.loc_conv = Conv1D(filters, kernel, padding="same", name="location_conv")
        self.loc_dense = Dense(units, use_bias=False, name="location_dense")
        self.query_dense = Dense(units, use_bias=False, name="query_dense")
        self.memory_dense = Dense(units, use_bias=False, name="memory_dense")
        self.values = memory
        self.keys = self.memory_dense(memory)

    def build(self, input_shape):
        enc_shape, dec_shape = input_shape
        self.v_a = self.add_weight(name="v_a", shape=(self.units,), initializer="uniform")
        self.b_a = self.add_weight(name="b_a", shape=(self.units,), initializer="zeros")
        self.query_dense.build(dec_shape)
        self.loc_conv.build((enc_shape[0], enc_shape[1], 1))
        self.loc_dense.build((enc_shape[0], enc_shape[1], self.filters))
        super().build(input_shape)

    def call(self, inputs):
        _, decoder_steps = inputs

        def energy_step(query, states):
            previous = states[0]  # (batch, encoder_steps)
            processed_query = K.expand_dims(self.query_dense(query), 1)
            location = self.loc_dense(self.loc_conv(K.expand_dims(previous, axis=2)))
            energy = K.sum(self.v_a * K.tanh(self.keys + processed_query + location + self.b_a), [2])
            alignments = K.softmax(energy)
            next_state = alignments + previous if self.cumulate else alignments
            return alignments, [next_state]

        def context_step(alignments, states):
            context = tf.matmul(K.expand_dims(alignments, 1), self.values)
            context = K.squeeze(context, 1)
            return context, [context]

        def zeros_state(tensor, size):
            state = K.sum(K.zeros_like(tensor), axis=[1, 2])
            return K.tile(K.expand_dims(state), [1, size])

        initial_alignments = zeros_state(self.values, K.shape(self.values)[1])
        initial_context = zeros_state(self.values, self.values.shape[-1])
        _, alignments, _ = K.rnn(energy_step, decoder_steps, [initial_alignments])
        _, contexts, _ = K.rnn(context_step, alignments, [initial_context])
        return [contexts, alignments]

    def compute_output_shape(self, input_shape):
        enc_shape, dec_shape = input_shape
        return [(dec_shape[0], dec_shape[1], enc_shape[2]), (dec_shape[0], dec_shape[1], enc_shape[1])]
