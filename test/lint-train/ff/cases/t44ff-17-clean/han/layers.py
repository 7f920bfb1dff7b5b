# case: t44ff-17-clean
# modelled-on: chritter/hierarchical-attention-networks https://github.com/chritter/hierarchical-attention-networks/commit/58bd9f5d7c5b506f1873091f8710a54fea0436e7
# label: correct
# class: clean
# pattern: a TensorFlow 1 hierarchical attention network: the word level runs on (docs * sentences, words, 2 * cell) and the sentence level (another module builds both) on (docs, sentences, 2 * cell); the attention reshapes the projected scores to (-1, max_time), replaces the positions past each sequence length with -1e15 through `tf.sequence_mask` and `tf.where`, calls `tf.nn.softmax` with the default (last) axis, and sums `inputs * alpha[:, :, None]` over axis 1
# why: correct: `tf.sequence_mask(lengths)` is True inside each sequence, so `tf.where(mask, scores, -1e15)` keeps the real positions and fills the padding; the scores are (batch, max_time) so the default last axis is time; an empty padded sentence (length 0) gets a uniform row of finite scores, not NaN, and is masked again at the sentence level
# looks-like: ATT001, ATT002, ATT007
# source: https://github.com/chritter/hierarchical-attention-networks https://github.com/chritter/hierarchical-attention-networks/commit/58bd9f5d7c5b506f1873091f8710a54fea0436e7 layers.py
import numpy as np
import tensorflow as tf


def dims_of(t):
    static = t.get_shape().as_list()
    dynamic = tf.shape(t)
    return [dynamic[i] if s is None else s for i, s in enumerate(static)]


def bi_gru(cell_fw, cell_bw, inputs, lengths, state_fw=None, state_bw=None, scope=None):
    with tf.variable_scope(scope or "bi_rnn") as scope:
        (out_fw, out_bw), _ = tf.nn.bidirectional_dynamic_rnn(
            cell_fw=cell_fw, cell_bw=cell_bw, inputs=inputs, sequence_length=lengths,
            initial_state_fw=state_fw, initial_state_bw=state_bw, dtype=tf.float32, scope=scope)
        return tf.concat((out_fw, out_bw), axis=2)


def pad_out(scores, lengths, fill=tf.constant(-np.inf)):
    inside = tf.sequence_mask(lengths, maxlen=tf.shape(scores)[1])
    return tf.where(inside, scores, fill * tf.ones_like(scores))


def attend(inputs, att_dim, lengths, scope=None):
    with tf.variable_scope(scope or "attention"):
        context = tf.get_variable(name="att_W", shape=[att_dim, 1])
        proj = tf.layers.dense(inputs, att_dim, tf.nn.tanh, name="projection")
        scores = tf.matmul(tf.reshape(proj, shape=[-1, att_dim]), context)
        scores = tf.reshape(scores, shape=[-1, dims_of(inputs)[1]])
        scores = pad_out(scores, lengths, tf.constant(-1e15, dtype=tf.float32))
        alpha = tf.nn.softmax(scores)
        return tf.reduce_sum(inputs * tf.expand_dims(alpha, 2), axis=1), alpha
