# case: b16-01-clean
# modelled-on: HKUST-KnowComp/R-Net https://github.com/HKUST-KnowComp/R-Net/commit/1efc5ef18067a84d44fa8d31c309a19c52958e92
# label: correct
# class: clean
# pattern: a TF1 reading-comprehension model (R-Net): keep masks come from the padded token ids themselves (tf.cast(ids, tf.bool), 0 = padding), are sliced to the batch's longest passage and handed to a gated dot attention and an attention pool in a layers module; the layers add -1e30 * (1 - mask) to the logits (an additive keep mask) and softmax over the last axis (the memory tokens); the dot attention projects both sides to `hidden` units (one head) and divides by hidden ** 0.5
# why: correct: the mask is 1 on real tokens and 0 on padding, and 1 - mask puts the large negative on the padding only; -1e30 is finite in float32 and the model never runs in half precision; the scale is the square root of the projected width the dot product runs over (single head); the softmax is over the memory axis the context sums over
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/HKUST-KnowComp/R-Net https://github.com/HKUST-KnowComp/R-Net/commit/1efc5ef18067a84d44fa8d31c309a19c52958e92 func.py
import tensorflow as tf

from .layers import gated_dot_attention, pool


class Reader:
    def __init__(self, config, batch, word_mat, hidden=75):
        self.c, self.q, self.y1, self.y2 = batch.get_next()
        self.is_train = tf.get_variable("is_train", shape=[], dtype=tf.bool, trainable=False)
        self.word_mat = tf.get_variable("word_mat", initializer=tf.constant(word_mat, dtype=tf.float32), trainable=False)

        self.c_mask = tf.cast(self.c, tf.bool)
        self.q_mask = tf.cast(self.q, tf.bool)
        self.c_len = tf.reduce_sum(tf.cast(self.c_mask, tf.int32), axis=1)
        self.q_len = tf.reduce_sum(tf.cast(self.q_mask, tf.int32), axis=1)

        n = config.batch_size
        c_max = tf.reduce_max(self.c_len)
        q_max = tf.reduce_max(self.q_len)
        self.c = tf.slice(self.c, [0, 0], [n, c_max])
        self.q = tf.slice(self.q, [0, 0], [n, q_max])
        self.c_mask = tf.slice(self.c_mask, [0, 0], [n, c_max])
        self.q_mask = tf.slice(self.q_mask, [0, 0], [n, q_max])
        self.build(config, hidden)

    def build(self, config, d):
        c = tf.nn.embedding_lookup(self.word_mat, self.c)
        q = tf.nn.embedding_lookup(self.word_mat, self.q)
        with tf.variable_scope("question_passage"):
            qc = gated_dot_attention(c, q, mask=self.q_mask, hidden=d,
                                     keep_prob=config.keep_prob, is_train=self.is_train)
        with tf.variable_scope("self_match"):
            match = gated_dot_attention(qc, qc, mask=self.c_mask, hidden=d,
                                        keep_prob=config.keep_prob, is_train=self.is_train)
        with tf.variable_scope("summary"):
            self.q_summary = pool(q, d, mask=self.q_mask, keep_prob=config.keep_prob, is_train=self.is_train)
        self.match = match
