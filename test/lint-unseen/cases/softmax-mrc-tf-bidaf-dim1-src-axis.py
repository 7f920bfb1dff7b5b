# case: softmax-mrc-tf-bidaf-dim1-src-axis
# modelled-on: stevezheng23/reading_comprehension_tf https://github.com/stevezheng23/reading_comprehension_tf/commit/a2f9a226e9d6e8827ca03eec78427b9d4455b35f
# label: buggy
# class: real-bug
# pattern: TF1 attention layer: the (batch, src_len, trg_len) scores come from a helper (bilinear or additive with tiled inputs and reshapes), the weights multiply the trg data with tf.matmul; the softmax axis is given with the old dim= keyword
# why: softmax over dim=1 normalises over the source (query) positions, while tf.matmul(weights, trg) sums over the last (trg) axis; an earlier commit had switched -1 to 1 as a "fix", and a2f9a22 restored the softmax over the last axis
# source: https://github.com/stevezheng23/reading_comprehension_tf https://github.com/stevezheng23/reading_comprehension_tf/commit/fd8c6968e2f145c32aa9ce7fa10d574b9f905824 reading_comprehension/layer/attention.py
import numpy as np
import tensorflow as tf

__all__ = ["Attention"]


def _create_attention_matrix(src_unit_dim, trg_unit_dim, attention_unit_dim, attention_score_type):
    """create attention matrix"""
    if attention_score_type == "mul":
        return [tf.get_variable("mul_att_mat", shape=[src_unit_dim, trg_unit_dim], dtype=tf.float32)]
    elif attention_score_type == "add":
        pre_activation_matrix = tf.get_variable("add_att_mat_pre",
            shape=[attention_unit_dim, src_unit_dim + trg_unit_dim], dtype=tf.float32)
        post_activation_matrix = tf.get_variable("add_att_mat_post",
            shape=[1, attention_unit_dim], dtype=tf.float32)
        return [pre_activation_matrix, post_activation_matrix]
    raise ValueError("unsupported attention score type {0}".format(attention_score_type))


def _generate_multiplicative_attention_score(input_src_data, input_trg_data, attention_matrix):
    """generate multiplicative attention score"""
    input_src_shape = tf.shape(input_src_data)
    batch_size = input_src_shape[0]
    src_max_length = input_src_shape[1]
    src_dim = input_src_shape[-1]
    input_trg_data = tf.transpose(input_trg_data, perm=[0, 2, 1])
    input_attention = tf.reshape(input_src_data, shape=[-1, src_dim])
    input_attention = tf.matmul(input_attention, attention_matrix[0])
    input_attention = tf.reshape(input_attention, shape=[batch_size, src_max_length, -1])
    return tf.matmul(input_attention, input_trg_data)


def _generate_additive_attention_score(input_src_data, input_trg_data, attention_matrix):
    """generate additive attention score"""
    batch_size = tf.shape(input_src_data)[0]
    src_max_length = tf.shape(input_src_data)[1]
    trg_max_length = tf.shape(input_trg_data)[1]
    input_src_data = tf.tile(tf.expand_dims(input_src_data, axis=2), multiples=[1, 1, trg_max_length, 1])
    input_trg_data = tf.tile(tf.expand_dims(input_trg_data, axis=1), multiples=[1, src_max_length, 1, 1])
    pre_activation_matrix = tf.transpose(attention_matrix[0], perm=[1, 0])
    post_activation_matrix = tf.transpose(attention_matrix[1], perm=[1, 0])
    input_concat = tf.concat([input_src_data, input_trg_data], axis=-1)
    concat_dim = tf.shape(input_concat)[-1]
    input_attention = tf.reshape(input_concat, shape=[-1, concat_dim])
    input_attention = tf.nn.tanh(tf.matmul(input_attention, pre_activation_matrix))
    input_attention = tf.matmul(input_attention, post_activation_matrix)
    return tf.reshape(input_attention, shape=[batch_size, src_max_length, trg_max_length])


def _generate_attention_score(input_src_data, input_trg_data, attention_matrix, attention_score_type):
    """generate attention score"""
    if attention_score_type == "mul":
        return _generate_multiplicative_attention_score(input_src_data, input_trg_data, attention_matrix)
    elif attention_score_type == "add":
        return _generate_additive_attention_score(input_src_data, input_trg_data, attention_matrix)
    raise ValueError("unsupported attention score type {0}".format(attention_score_type))


class Attention(object):
    """attention layer"""

    def __init__(self, src_dim, trg_dim, unit_dim, score_type, trainable=True, scope="attention"):
        self.score_type = score_type
        self.scope = scope
        with tf.variable_scope(self.scope, reuse=tf.AUTO_REUSE):
            self.attention_matrix = _create_attention_matrix(src_dim, trg_dim, unit_dim, score_type)

    def __call__(self, input_src_data, input_trg_data, input_src_mask, input_trg_mask):
        """call attention layer"""
        with tf.variable_scope(self.scope, reuse=tf.AUTO_REUSE):
            input_src_data = input_src_data * input_src_mask
            input_trg_data = input_trg_data * input_trg_mask
            input_attention_score = _generate_attention_score(input_src_data,
                input_trg_data, self.attention_matrix, self.score_type)
            input_attention_weight = tf.nn.softmax(input_attention_score, dim=1)  # expect: ATT001
            output_attention = tf.matmul(input_attention_weight, input_trg_data)
        return output_attention
