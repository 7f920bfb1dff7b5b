import tensorflow as tf
import tensorflow.contrib.rnn as rnn

from .layers import attend, bi_gru, dims_of


class DocClassifier:
    def __init__(self, cell_dim, att_dim, vocab, emb, n_classes, drop, pretrained):
        self.cell_dim, self.att_dim, self.drop = cell_dim, att_dim, drop
        self.docs = tf.placeholder(shape=(None, None, None), dtype=tf.int32, name="docs")
        self.sent_lengths = tf.placeholder(shape=(None,), dtype=tf.int32, name="sent_lengths")
        self.word_lengths = tf.placeholder(shape=(None, None), dtype=tf.int32, name="word_lengths")
        self.max_words = tf.placeholder(dtype=tf.int32, name="max_word_length")
        self.max_sents = tf.placeholder(dtype=tf.int32, name="max_sent_length")
        self.training = tf.placeholder(dtype=tf.bool, name="is_training")
        table = tf.get_variable("embedding_matrix", shape=[vocab, emb], initializer=tf.constant_initializer(pretrained))
        self.embedded = tf.nn.embedding_lookup(table, self.docs)
        self.emb = emb
        sents = self._words()
        self.logits = tf.layers.dense(self._sentences(sents), n_classes, name="logits")

    def _zero_state(self, like, name):
        init = tf.get_variable(name, shape=[1, self.cell_dim], initializer=tf.constant_initializer(0))
        return tf.tile(init, multiples=[dims_of(like)[0], 1])

    def _words(self):
        with tf.variable_scope("word-encoder") as scope:
            words = tf.reshape(self.embedded, [-1, self.max_words, self.emb])
            lengths = tf.reshape(self.word_lengths, [-1])
            out = bi_gru(rnn.GRUCell(self.cell_dim), rnn.GRUCell(self.cell_dim), words, lengths,
                         self._zero_state(words, "fw0"), self._zero_state(words, "bw0"), scope)
            vec, _ = attend(out, self.att_dim, lengths)
            return tf.layers.dropout(vec, self.drop, training=self.training)

    def _sentences(self, word_vecs):
        with tf.variable_scope("sent-encoder") as scope:
            sents = tf.reshape(word_vecs, [-1, self.max_sents, 2 * self.cell_dim])
            out = bi_gru(rnn.GRUCell(self.cell_dim), rnn.GRUCell(self.cell_dim), sents, self.sent_lengths,
                         self._zero_state(sents, "fw1"), self._zero_state(sents, "bw1"), scope)
            vec, _ = attend(out, self.att_dim, self.sent_lengths)
            return tf.layers.dropout(vec, self.drop, training=self.training)
