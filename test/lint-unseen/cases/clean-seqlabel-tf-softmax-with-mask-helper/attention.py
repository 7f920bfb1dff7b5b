# case: clean-seqlabel-tf-softmax-with-mask-helper
# modelled-on: stevezheng23/sequence_labeling_tf https://github.com/stevezheng23/sequence_labeling_tf/pull/70
# label: correct
# class: clean
# pattern: a three-file TF workspace: the scores are multiplied by a 0/1 mask (built by an outer product of the two padding masks), then go through softmax_with_mask imported from sequence_labeling_util.py, which adds MIN_FLOAT (from default_util.py) at the masked positions, and the weights are multiplied by the mask again afterwards
# why: the masking that matters happens inside the imported helper before its softmax (MIN_FLOAT = -1e30 in float32); the multiplications by the 0/1 mask before and after only zero out rows of padded queries, which the caller drops; the scaled_dot branch divides by sqrt of the feature size and the dot branch is plain Luong dot attention
# looks-like: ATT003, ATT006
# source: https://github.com/stevezheng23/sequence_labeling_tf https://github.com/stevezheng23/sequence_labeling_tf/commit/4444ad72f970a7cd0697296d4a05a4680d23b7ee sequence_labeling/layer/attention.py
import tensorflow as tf

from sequence_labeling_util import *


def _generate_dot_attention_score(input_src_data,
                                  input_trg_data):
    """generate dot-product attention score"""
    return tf.matmul(input_src_data, input_trg_data, transpose_b=True)


def _generate_scaled_dot_attention_score(input_src_data,
                                         input_trg_data):
    """generate scaled dot-product attention score"""
    src_unit_dim = tf.shape(input_src_data)[2]
    input_attention = tf.matmul(input_src_data, input_trg_data, transpose_b=True)
    input_attention = input_attention / tf.sqrt(tf.cast(src_unit_dim, dtype=tf.float32))
    return input_attention


def _generate_attention_score(input_src_data,
                              input_trg_data,
                              attention_score_type):
    """generate attention score"""
    if attention_score_type == "dot":
        return _generate_dot_attention_score(input_src_data, input_trg_data)
    elif attention_score_type == "scaled_dot":
        return _generate_scaled_dot_attention_score(input_src_data, input_trg_data)
    raise ValueError("unsupported attention score type {0}".format(attention_score_type))


def _generate_attention_mask(input_src_mask,
                             input_trg_mask,
                             remove_diag=False):
    """generate attention mask"""
    input_mask = tf.matmul(input_src_mask, input_trg_mask, transpose_b=True)
    if remove_diag == True:
        src_max_length = tf.shape(input_src_mask)[1]
        trg_max_length = tf.shape(input_trg_mask)[1]
        input_mask = input_mask * (1 - tf.eye(src_max_length, trg_max_length))
    return input_mask


class Attention(object):
    """attention layer"""

    def __init__(self, score_type, is_self=False, scope="attention"):
        self.score_type = score_type
        self.is_self = is_self
        self.scope = scope

    def __call__(self, input_src_data, input_trg_data, input_src_mask, input_trg_mask):
        """call attention layer"""
        with tf.variable_scope(self.scope, reuse=tf.AUTO_REUSE):
            input_attention_score = _generate_attention_score(input_src_data,
                input_trg_data, self.score_type)
            input_attention_mask = _generate_attention_mask(input_src_mask,
                input_trg_mask, self.is_self)
            input_attention_score = input_attention_score * input_attention_mask

            input_attention_weight = softmax_with_mask(input_attention_score,
                input_attention_mask, axis=-1) * input_attention_mask

            input_attention = tf.matmul(input_attention_weight, input_trg_data)
            output_attention = input_attention * input_src_mask
            return output_attention, input_src_mask
