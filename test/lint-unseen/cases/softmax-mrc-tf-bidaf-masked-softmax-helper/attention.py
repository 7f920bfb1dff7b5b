# case: softmax-mrc-tf-bidaf-masked-softmax-helper
# modelled-on: stevezheng23/reading_comprehension_tf https://github.com/stevezheng23/reading_comprehension_tf/commit/cc7ad51e9193950200e57f7160a585fec29e30d8
# label: correct
# class: fixed
# pattern: a two-file TF workspace after the fix: the (batch, src_len, trg_len) scores and an outer-product 0/1 mask go to softmax_with_mask in reading_comprehension_util.py, a hand-written softmax over axis=-1 that multiplies exp(x - max) by the mask in numerator and denominator
# why: the normalisation is over the last (trg) axis that tf.matmul(weights, trg) sums over; the masked positions get exactly zero weight because the exponentials are multiplied by the mask before the sum, so the multiplications by the mask are the masking itself, not a mask on the logits
# looks-like: ATT001, ATT003, ATT006
# source: https://github.com/stevezheng23/reading_comprehension_tf https://github.com/stevezheng23/reading_comprehension_tf/commit/cc7ad51e9193950200e57f7160a585fec29e30d8 reading_comprehension/layer/attention.py
import numpy as np
import tensorflow as tf

from reading_comprehension_util import *

__all__ = ["Attention"]


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


def _generate_attention_mask(input_src_mask, input_trg_mask, remove_diag=False):
    """generate attention mask"""
    src_max_length = tf.shape(input_src_mask)[1]
    trg_max_length = tf.shape(input_trg_mask)[1]
    input_src_mask = tf.tile(tf.expand_dims(input_src_mask, axis=2), multiples=[1, 1, trg_max_length, 1])
    input_trg_mask = tf.tile(tf.expand_dims(input_trg_mask, axis=1), multiples=[1, src_max_length, 1, 1])
    input_mask = tf.squeeze(input_src_mask * input_trg_mask, axis=-1)
    if remove_diag == True:
        input_mask = input_mask * (1 - tf.eye(src_max_length, trg_max_length))
    return input_mask


class Attention(object):
    """attention layer"""

    def __init__(self, src_dim, trg_dim, unit_dim, trainable=True, scope="attention"):
        self.scope = scope
        with tf.variable_scope(self.scope, reuse=tf.AUTO_REUSE):
            pre_activation_matrix = tf.get_variable("add_att_mat_pre",
                shape=[unit_dim, src_dim + trg_dim], dtype=tf.float32)
            post_activation_matrix = tf.get_variable("add_att_mat_post",
                shape=[1, unit_dim], dtype=tf.float32)
            self.attention_matrix = [pre_activation_matrix, post_activation_matrix]

    def __call__(self, input_src_data, input_trg_data, input_src_mask, input_trg_mask):
        """call attention layer"""
        with tf.variable_scope(self.scope, reuse=tf.AUTO_REUSE):
            input_src_data = input_src_data * input_src_mask
            input_trg_data = input_trg_data * input_trg_mask
            input_attention_score = _generate_additive_attention_score(input_src_data,
                input_trg_data, self.attention_matrix)
            input_attention_mask = _generate_attention_mask(input_src_mask, input_trg_mask, False)
            input_attention_weight = softmax_with_mask(input_attention_score,
                input_attention_mask, axis=-1, keepdims=True)
            output_attention = tf.matmul(input_attention_weight, input_trg_data)
            output_mask = input_src_mask
            output_attention = output_attention * output_mask
        return output_attention, output_mask
