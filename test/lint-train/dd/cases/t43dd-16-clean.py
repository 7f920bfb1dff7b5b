# case: t43dd-16-clean
# modelled-on: feizhihui/Hierarchical-Attention-Classification https://github.com/feizhihui/Hierarchical-Attention-Classification/commit/07aed7f00d9486459e67522665ccb02c854fa04a
# label: correct
# class: clean
# pattern: a TensorFlow 1 hierarchical attention network for ICD code classification: a bidirectional LSTM encoder over (batch, max_time, emb) with `sequence_length` from the non-zero rows, then the HAN attention layer: `u = tanh(fully_connected(h))`, scores `reduce_sum(u * u_context, axis=2, keep_dims=True)` of shape (batch, max_time, 1), `tf.nn.softmax(scores, dim=1)`, and the attended vector `reduce_sum(h * alpha, axis=1)`
# why: correct: `dim=` is TensorFlow 1's name for `axis=`, and axis 1 is max_time, the axis the attended vector sums over; the last axis has length 1 (keep_dims=True) and would give all-ones weights, so dim=1 is the right choice; padded time steps are zero vectors after the dynamic RNN and carry no mask here by design
# looks-like: ATT001, ATT006
# source: https://github.com/feizhihui/Hierarchical-Attention-Classification https://github.com/feizhihui/Hierarchical-Attention-Classification/commit/07aed7f00d9486459e67522665ccb02c854fa04a hierarchy_classification/hierarchy_model.py
import tensorflow as tf
from tensorflow.contrib import layers, rnn

HIDDEN = 100


class DocAttentionNet:
    def __init__(self, word_vectors, n_classes):
        self.ids = tf.placeholder(tf.int32, [None, None], name="ids")
        self.labels = tf.placeholder(tf.float32, [None, n_classes], name="labels")
        table = tf.Variable(word_vectors)
        embedded = tf.nn.embedding_lookup(table, self.ids)
        encoded = self.encode(embedded, "word_encoder")
        doc = self.attend(encoded, "word_attention")
        self.logits = layers.fully_connected(doc, n_classes, activation_fn=None)
        self.loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=self.labels, logits=self.logits))

    def lengths(self, seqs):
        used = tf.sign(tf.reduce_max(tf.abs(seqs), reduction_indices=2))
        return tf.cast(tf.reduce_sum(used, reduction_indices=1), tf.int32)

    def encode(self, inputs, name):
        with tf.variable_scope(name):
            fw = rnn.LSTMCell(HIDDEN)
            bw = rnn.LSTMCell(HIDDEN)
            (out_fw, out_bw), _ = tf.nn.bidirectional_dynamic_rnn(
                cell_fw=fw, cell_bw=bw, inputs=inputs, sequence_length=self.lengths(inputs), dtype=tf.float32
            )
            return tf.concat((out_fw, out_bw), 2)

    def attend(self, h, name):
        # h: [batch, max_time, 2 * HIDDEN]
        with tf.variable_scope(name):
            context = tf.Variable(tf.truncated_normal([HIDDEN * 2]), name="u_context")
            u = layers.fully_connected(h, HIDDEN * 2, activation_fn=tf.nn.tanh)
            alpha = tf.nn.softmax(tf.reduce_sum(tf.multiply(u, context), axis=2, keep_dims=True), dim=1)
            return tf.reduce_sum(tf.multiply(h, alpha), axis=1)
