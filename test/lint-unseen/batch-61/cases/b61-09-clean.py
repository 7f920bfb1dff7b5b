# case: b61-09-clean
# modelled-on: v0lta/Listen-attend-and-spell https://github.com/v0lta/Listen-attend-and-spell/commit/4772e881cc168439723c19f69a2425588f661060
# label: correct
# class: clean
# pattern: the attend step of a TensorFlow Listen, Attend and Spell speller cell: the listener's high-level features (batch, time, feat) are passed once through a feature network to give psi (batch, time, units), stored on the cell; at every decoding step the pre-context state goes through a state network to give phi (batch, units), expanded to (batch, units, 1); the energies are `matmul(psi, phi_3d)` squeezed to (batch, time), normalised by `tf.nn.softmax` with no axis argument, expanded to (batch, 1, time) and multiplied with the features to give the context vector
# why: correct: the energy is (batch, time) after the squeeze, so the default softmax axis (-1) is the time axis, as LAS's alpha_(i,u) = softmax_u(e_(i,u)) requires; `matmul(psi, phi_3d)` already contracts the unit axis of keys and query, so no transpose is missing; LAS's content attention is an unscaled dot product of two learned networks by design (no 1/sqrt(d)); all listener frames are attended, as in the original, whose batches are cut to equal lengths
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/v0lta/Listen-attend-and-spell https://github.com/v0lta/Listen-attend-and-spell/commit/4772e881cc168439723c19f69a2425588f661060 neuralnetworks/las_elements.py
import tensorflow as tf


def mlp(units, layers, name):
    return tf.keras.Sequential([tf.keras.layers.Dense(units, activation="relu") for _ in range(layers)], name=name)


class SpellerAttention:
    """Content attention of the speller: e = phi(s)^T psi(h), alpha = softmax over the listener frames."""

    def __init__(self, units=128, layers=2):
        self.state_net = mlp(units, layers, "state_net")
        self.feature_net = mlp(units, layers, "feature_net")
        self.features = None
        self.psi = None

    def set_features(self, high_level, training=False):
        """high_level: (batch, time, feat) from the listener; psi is computed once, outside the decoding loop."""
        self.features = high_level
        self.psi = self.feature_net(high_level, training=training)  # (batch, time, units)

    def context(self, state, training=False):
        phi = self.state_net(state, training=training)  # (batch, units)
        phi_col = tf.expand_dims(phi, 2)  # (batch, units, 1)
        energy = tf.squeeze(tf.matmul(self.psi, phi_col, name="energy"), axis=[2])  # (batch, time)
        alpha = tf.nn.softmax(energy)
        ctx = tf.matmul(tf.expand_dims(alpha, 1), self.features, name="context")  # (batch, 1, feat)
        return tf.squeeze(ctx, axis=[1]), alpha


def spell_step(attention, rnn_cell, char_net, prev_char, prev_context, rnn_state, training=False):
    cell_in = tf.concat([prev_char, prev_context], axis=-1)
    out, rnn_state = rnn_cell(cell_in, rnn_state, training=training)
    context, alpha = attention.context(out, training=training)
    logits = char_net(tf.concat([out, context], axis=-1), training=training)
    return logits, context, rnn_state, alpha
