# case: t17j-04-clean
# modelled-on: SSinyu/Hierarchical-Attention-Networks https://github.com/SSinyu/Hierarchical-Attention-Networks/commit/691adb4ba9699789070447a238eef7a57ca730f8
# label: correct
# class: clean
# pattern: a TF1 hierarchical attention network split over two modules: a layers module has a bidirectional GRU whose sequence lengths come from sign(reduce_max(abs(x))) and an attention that scores tanh(fully_connected(x)) against a learned context vector with reduce_sum(h * contexts, axis=2, keepdims=True), softmaxes the (batch, steps, 1) scores with axis=1 and pools with reduce_sum(x * alpha, axis=1); the model module reshapes (docs, sentences, words) into (docs * sentences, words, emb) for the word level and back to (docs, sentences, 2h) for the sentence level
# why: correct: keepdims leaves (batch, steps, 1), so axis=1 is the steps axis, not the length-1 one, and the weights broadcast over the features in x * alpha; additive context-vector attention has no 1/sqrt(d) scale; padded words are not masked, as in the paper's reference implementation, and that is not what the rules here are about
# looks-like: ATT001, ATT003
# source: https://github.com/SSinyu/Hierarchical-Attention-Networks https://github.com/SSinyu/Hierarchical-Attention-Networks/commit/691adb4ba9699789070447a238eef7a57ca730f8 tf_module.py, tf_model.py
import tensorflow as tf
from tensorflow.contrib import layers, rnn


def sequence_length(seq):
    used = tf.sign(tf.reduce_max(tf.abs(seq), reduction_indices=2))
    return tf.cast(tf.reduce_sum(used, reduction_indices=1), tf.int32)


def bi_gru(x, hidden_size, keep_prob=None):
    fw = rnn.GRUCell(hidden_size)
    bw = rnn.GRUCell(hidden_size)
    if keep_prob:
        fw = rnn.DropoutWrapper(fw, input_keep_prob=keep_prob)
        bw = rnn.DropoutWrapper(bw, input_keep_prob=keep_prob)
    (out_fw, out_bw), _ = tf.nn.bidirectional_dynamic_rnn(
        cell_fw=fw, cell_bw=bw, inputs=x, sequence_length=sequence_length(x), dtype=tf.float32
    )
    return tf.concat((out_fw, out_bw), axis=2)


def context_attention(x, hidden_size):
    context = tf.Variable(tf.truncated_normal(shape=[hidden_size]))
    h = layers.fully_connected(x, hidden_size, activation_fn=tf.nn.tanh)
    alpha = tf.nn.softmax(tf.reduce_sum(tf.multiply(h, context), axis=2, keepdims=True), axis=1)
    return tf.reduce_sum(tf.multiply(x, alpha), axis=1)
