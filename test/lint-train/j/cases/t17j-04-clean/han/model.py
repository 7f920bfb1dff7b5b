import tensorflow as tf
from tensorflow.contrib import layers

from han.layers import bi_gru, context_attention


class HAN:
    def __init__(self, vocab_size, emb_size, hidden_size, n_classes, max_sents, max_words):
        self.docs = tf.placeholder(tf.int32, [None, max_sents, max_words])
        self.labels = tf.placeholder(tf.int32, [None])
        self.keep_prob = tf.placeholder(tf.float32)
        embeddings = tf.Variable(tf.random_uniform([vocab_size, emb_size], -1.0, 1.0))
        words = tf.nn.embedding_lookup(embeddings, self.docs)  # (docs, sents, words, emb)

        with tf.variable_scope("word"):
            flat = tf.reshape(words, [-1, max_words, emb_size])
            states = bi_gru(flat, hidden_size, self.keep_prob)  # (docs * sents, words, 2h)
            sent_vecs = context_attention(states, hidden_size * 2)  # (docs * sents, 2h)

        with tf.variable_scope("sentence"):
            sents = tf.reshape(sent_vecs, [-1, max_sents, hidden_size * 2])
            states = bi_gru(sents, hidden_size, self.keep_prob)
            doc_vecs = context_attention(states, hidden_size * 2)  # (docs, 2h)

        self.logits = layers.fully_connected(doc_vecs, n_classes, activation_fn=None)
        self.loss = tf.reduce_mean(
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels=self.labels, logits=self.logits)
        )
