import tensorflow as tf

from default_util import *

__all__ = ["softmax_with_mask", "generate_masked_data"]


def softmax_with_mask(input_data,
                      input_mask,
                      axis=-1):
    """compute softmax with masking"""
    return tf.nn.softmax(input_data * input_mask + MIN_FLOAT * (1 - input_mask), axis=axis)


def generate_masked_data(input_data,
                         input_mask):
    """generate masked data"""
    return input_data * input_mask + MIN_FLOAT * (1 - input_mask)
