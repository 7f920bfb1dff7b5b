# case: softmax-rc-tf-bilinear-scores-dim1
# modelled-on: stevezheng23/reading_comprehension_tf https://github.com/stevezheng23/reading_comprehension_tf/commit/a2f9a22
# label: buggy
# pattern: TF1 reading-comprehension attention layer; the [B, S, T] scores come from a module-level helper chosen by score type (src @ W, then matmul with transpose(trg, [0, 2, 1])), the layer calls tf.nn.softmax(scores, dim=1) and then matmul(weights, trg)
# why: dim=1 normalises over the S source positions, but matmul(weights, trg) sums over the T target positions, so each output row mixes keys with weights that do not sum to 1; an earlier commit (a6d1817) had moved the axis from -1 to 1 and a2f9a22 put the softmax back on the last axis
import tensorflow as tf


def _create_attention_matrix(src_dim, trg_dim):
    return [tf.get_variable("mul_att_mat", shape=[src_dim, trg_dim], dtype=tf.float32)]


def _multiplicative_score(src, trg, attention_matrix):
    src_shape = tf.shape(src)
    batch_size = src_shape[0]
    src_len = src_shape[1]
    src_dim = src_shape[-1]
    trg = tf.transpose(trg, perm=[0, 2, 1])
    projected = tf.reshape(src, shape=[-1, src_dim])
    projected = tf.matmul(projected, attention_matrix[0])
    projected = tf.reshape(projected, shape=[batch_size, src_len, -1])
    return tf.matmul(projected, trg)


def _generate_attention_score(src, trg, attention_matrix, score_type):
    if score_type == "mul":
        return _multiplicative_score(src, trg, attention_matrix)
    raise ValueError("unsupported attention score type {0}".format(score_type))


class Attention(object):
    def __init__(self, src_dim, trg_dim, score_type="mul", scope="attention"):
        self.score_type = score_type
        self.scope = scope
        with tf.variable_scope(self.scope, reuse=tf.AUTO_REUSE):
            self.attention_matrix = _create_attention_matrix(src_dim, trg_dim)

    def __call__(self, src, trg):
        # src: [B, S, D], trg: [B, T, D]
        with tf.variable_scope(self.scope, reuse=tf.AUTO_REUSE):
            score = _generate_attention_score(src, trg, self.attention_matrix, self.score_type)
            weight = tf.nn.softmax(score, dim=1)  # expect: ATT001
            return tf.matmul(weight, trg)
