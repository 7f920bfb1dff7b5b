# case: t21n-05-scale
# modelled-on: MirunaPislar/multi-head-attention-labeller https://github.com/MirunaPislar/multi-head-attention-labeller/commit/49ce27fcf843004fee65f2b7235472b6f06d93e7
# label: buggy
# class: real-bug
# pattern: a TensorFlow 1 multi-head attention labeller (sentence and token labels from one model): queries, keys and values are tanh dense projections of width num_units, zeroed at padding with tf.sequence_mask, split into num_heads slices and stacked on the batch axis ((heads * B), M, num_units / heads); the "scaled dot-product" evidence is tf.matmul(queries, tf.transpose(keys, [0, 2, 1])) divided by tf.constant(num_units ** 0.5); padded key columns are masked by a helper in another module, then a softmax (or a sigmoid / exp / linear activation renormalised over the last axis), padded query rows zeroed, and the weights summed over the queries into token scores
# why: buggy: after the split each head's dot products run over num_units / num_heads features, so the transformer scale the comment names is 1/sqrt(num_units / num_heads); dividing by sqrt(num_units) shrinks every head's evidence by another sqrt(num_heads) (the module even recomputes num_units to a multiple of num_heads before splitting); the masking, the axis and the transpose are right. The scale stayed the same in every later version of the file (no fix exists)
# source: https://github.com/MirunaPislar/multi-head-attention-labeller https://github.com/MirunaPislar/multi-head-attention-labeller/commit/49ce27fcf843004fee65f2b7235472b6f06d93e7 modules.py
from math import ceil

import tensorflow as tf

from labeller.masking import division_masking, mask


def multi_head_token_attention(inputs, initializer, attention_activation, num_heads, is_training, dropout,
                               sentence_lengths, token_scoring_method="sum"):
    """inputs: [B x M x E] -> token probabilities [B x num_heads x M], token predictions [B x M]."""
    with tf.variable_scope("multi_head_token_attention"):
        num_units = inputs.get_shape().as_list()[-1]
        if num_units % num_heads != 0:
            num_units = ceil(num_units / num_heads) * num_heads
            inputs = tf.layers.dense(inputs, num_units)

        queries = tf.layers.dense(inputs, num_units, activation=tf.tanh, kernel_initializer=initializer)
        keys = tf.layers.dense(inputs, num_units, activation=tf.tanh, kernel_initializer=initializer)
        values = tf.layers.dense(inputs, num_units, activation=tf.tanh, kernel_initializer=initializer)

        # zero every position after the true sentence length
        keep = tf.tile(tf.expand_dims(tf.sequence_mask(sentence_lengths), axis=-1), [1, 1, num_units])
        queries = tf.where(keep, queries, tf.zeros_like(queries))
        keys = tf.where(keep, keys, tf.zeros_like(keys))
        values = tf.where(keep, values, tf.zeros_like(values))

        # [(heads * B) x M x (num_units / heads)]
        queries = tf.concat(tf.split(queries, num_heads, axis=2), axis=0)
        keys = tf.concat(tf.split(keys, num_heads, axis=2), axis=0)

        # Transpose multiplication and scale
        evidence = tf.matmul(queries, tf.transpose(keys, [0, 2, 1]))  # [(heads * B) x M x M]
        evidence = tf.math.divide(evidence, tf.constant(num_units ** 0.5))  # expect: ATT004

        evidence = mask(evidence, queries, keys, type="key")
        if attention_activation == "soft":
            weights = tf.nn.sigmoid(evidence)
        elif attention_activation == "sharp":
            weights = tf.math.exp(evidence)
        elif attention_activation == "linear":
            weights = evidence
        elif attention_activation == "softmax":
            weights = tf.nn.softmax(evidence)
        else:
            raise ValueError("unknown attention activation %s" % attention_activation)
        if attention_activation != "softmax":
            weights /= tf.reduce_sum(weights, axis=-1, keep_dims=True)
        weights = mask(weights, queries, keys, type="query")

        keep_prob = dropout * tf.cast(is_training, tf.float32) + (1.0 - tf.cast(is_training, tf.float32))
        weights = tf.nn.dropout(weights, keep_prob)

        if token_scoring_method == "sum":
            token_scores = tf.reduce_sum(weights, axis=1, keep_dims=True)
        elif token_scoring_method == "max":
            token_scores = tf.reduce_max(weights, axis=1, keep_dims=True)
        else:
            token_scores = tf.reduce_mean(weights, axis=1, keep_dims=True)

        token_scores = tf.concat(tf.split(token_scores, num_heads), axis=1)  # [B x heads x M]
        token_probabilities = division_masking(token_scores, axis=1, multiplies=[1, num_heads, 1])
        token_predictions = tf.argmax(token_probabilities, axis=1, output_type=tf.int32)
        return token_probabilities, token_predictions, values
