# case: b44-10-clean
# modelled-on: JasperGuo/seq2seq_regex https://github.com/JasperGuo/seq2seq_regex/commit/03a441a04a13cd840404802c35712c3655038b1b
# label: correct
# class: clean
# pattern: a TensorFlow 1 sequence-to-regex decoder (a folder: the graph code and the batching module that builds the masks): the decoder state attends over the encoder outputs of the natural-language sentence with a bilinear score (hs W) . h_j computed through reshapes and transposes, and the weights come from a hand-written softmax_with_mask that exponentiates the scores, multiplies by a 0/1 float mask placeholder and divides by the masked row sum; the batching code fills the mask placeholder with [1] * length + [0] * padding per example
# why: correct: exp(s) * m / sum(exp(s) * m) over axis 1 is exactly the softmax over the real positions of each row (the mask multiplies the exponentials, not the probabilities, so the result is renormalised and the padded positions get 0); the mask is 1 on the real tokens, as the batching code builds it; axis 1 of the (batch, max_len) scores is the sentence positions; a content (bilinear) score of an RNN decoder has no 1/sqrt(d) scale
# looks-like: ATT001, ATT003, ATT006
# source: https://github.com/JasperGuo/seq2seq_regex https://github.com/JasperGuo/seq2seq_regex/commit/03a441a04a13cd840404802c35712c3655038b1b baseline_with_case/models.py
import tensorflow as tf


def masked_softmax(scores, mask):
    """scores, mask: [batch, length]; mask is 1.0 on real positions, 0.0 on padding."""
    e = tf.exp(scores)
    e = tf.multiply(e, mask)
    z = tf.reshape(tf.reduce_sum(e, axis=1), [-1, 1])
    return tf.div(e, z)


class RegexDecoderGraph:
    def __init__(self, batch, max_len, hidden, vocab):
        self.batch, self.max_len, self.hidden = batch, max_len, hidden
        self.tokens = tf.placeholder(tf.int32, [batch, max_len], name="sentence_tokens")
        self.lengths = tf.placeholder(tf.int32, [batch], name="sentence_lengths")
        self.masks = tf.placeholder(tf.float32, [batch, max_len], name="sentence_masks")
        emb = tf.get_variable("embedding", [vocab, hidden])
        cell = tf.contrib.rnn.LSTMCell(hidden)
        self.enc_out, self.enc_state = tf.nn.dynamic_rnn(
            cell, tf.nn.embedding_lookup(emb, self.tokens), sequence_length=self.lengths, dtype=tf.float32
        )
        self.w_score = tf.get_variable("w_score", [hidden, hidden])
        self.w_mix = tf.get_variable("w_mix", [hidden, 2 * hidden])

    def attend(self, hs):
        """hs: [batch, hidden] decoder state -> [batch, hidden] attentive state."""
        with tf.name_scope("sentence_attention"):
            proj = tf.reshape(tf.matmul(hs, self.w_score), [self.batch * self.hidden, 1])
            outs_t = tf.reshape(
                tf.transpose(self.enc_out, perm=[0, 2, 1]), [self.batch * self.hidden, self.max_len]
            )
            prod = tf.reshape(tf.multiply(outs_t, proj), [self.batch, self.hidden, self.max_len])
            scores = tf.reduce_sum(tf.transpose(prod, perm=[0, 2, 1]), axis=2)   # [batch, max_len]
            weights = masked_softmax(scores, self.masks)
            context = tf.reduce_sum(tf.reshape(weights, [self.batch, self.max_len, 1]) * self.enc_out, axis=1)
            joined = tf.concat((context, hs), axis=1)                               # [batch, 2 * hidden]
            return tf.tanh(tf.transpose(tf.matmul(self.w_mix, joined, transpose_b=True)))
