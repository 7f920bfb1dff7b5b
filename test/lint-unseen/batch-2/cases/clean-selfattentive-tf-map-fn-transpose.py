# case: clean-selfattentive-tf-map-fn-transpose
# modelled-on: flrngel/Self-Attentive-tensorflow https://github.com/flrngel/Self-Attentive-tensorflow/issues/3
# label: correct
# class: clean
# pattern: TF1 structured self-attentive sentence embedding (Lin et al. 2017): the BiLSTM states H are (batch, n, 2u) and the annotation matrix is built per example with tf.map_fn, where tf.transpose without perm is applied to one (n, 2u) slice; tf.nn.softmax with its default last axis on (batch, r, n)
# why: inside map_fn each x is a 2-D (n, 2u) slice, so tf.transpose(x) is the intended (2u, n) matrix transpose (the reporter of issue #3 read it as a transpose of the 3-D H); the r attention hops are each normalised over the n tokens, the last axis, as in the paper
# looks-like: ATT001, ATT005
# source: https://github.com/flrngel/Self-Attentive-tensorflow https://github.com/flrngel/Self-Attentive-tensorflow/issues/3 model.py
import tensorflow as tf


class StructuredSelfAttentive(object):
    def build_graph(self, n=60, d=100, u=128, d_a=350, r=30, vocab=100000, reuse=False):
        with tf.variable_scope("StructuredSelfAttentive", reuse=reuse):
            initializer = tf.contrib.layers.xavier_initializer()
            embedding = tf.get_variable("embedding", shape=[vocab, d], initializer=initializer)
            self.input_pl = tf.placeholder(tf.int32, shape=[None, n])
            embedded = tf.nn.embedding_lookup(embedding, self.input_pl)  # (batch, n, d)

            # W_s1: (d_a, 2u), W_s2: (r, d_a)
            self.W_s1 = tf.get_variable("W_s1", shape=[d_a, 2 * u], initializer=initializer)
            self.W_s2 = tf.get_variable("W_s2", shape=[r, d_a], initializer=initializer)

            batch_size = tf.shape(self.input_pl)[0]
            outputs, _ = tf.nn.bidirectional_dynamic_rnn(
                tf.contrib.rnn.LSTMCell(u), tf.contrib.rnn.LSTMCell(u), embedded, dtype=tf.float32
            )
            H = tf.concat([outputs[0], outputs[1]], axis=2)  # (batch, n, 2u)

            hidden = tf.tanh(tf.map_fn(lambda x: tf.matmul(self.W_s1, tf.transpose(x)), H))  # (batch, d_a, n)
            self.A = A = tf.nn.softmax(tf.map_fn(lambda x: tf.matmul(self.W_s2, x), hidden))  # (batch, r, n)

            self.M = tf.matmul(A, H)  # (batch, r, 2u)

            A_T = tf.transpose(A, perm=[0, 2, 1])  # (batch, n, r)
            eye = tf.reshape(tf.tile(tf.eye(r), [batch_size, 1]), [-1, r, r])
            self.P = tf.square(tf.norm(tf.matmul(A, A_T) - eye, axis=[-2, -1], ord="fro"))
            return self.M, self.P
