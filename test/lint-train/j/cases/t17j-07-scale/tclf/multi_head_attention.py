# case: t17j-07-scale
# modelled-on: brightmart/text_classification https://github.com/brightmart/text_classification/commit/091ff9910839ba5053302383af99762c0c91a992
# label: buggy
# class: real-bug
# pattern: a TF1 transformer text classifier: queries, keys and values are projected to d_model, split into h heads of width d_k = d_model / h with tf.stack(tf.split(..., h, axis=2), axis=1), multiplied with tf.matmul(..., transpose_b=True) and scaled by 1 / sqrt(d_model) before tf.nn.softmax; an earlier "mine" variant in the same class multiplies the heads elementwise, scales by the same factor, sums over the features with keep_dims=True and applies tf.nn.softmax to the resulting (batch, h, seq, 1) tensor; the classifier in another file builds the layer with d_model=512, d_k=64, h=8
# why: buggy: each head's keys are d_k = d_model / h wide (64, the docstring's "projections to d_k"), so the paper's scale is 1/sqrt(d_k), not 1/sqrt(d_model) (the same code's author agreed to this correction in an issue of his sibling BERT repository); in the "mine" variant the softmax runs over the last axis, which keep_dims left with length 1, so every weight is 1.0
# source: https://github.com/brightmart/text_classification https://github.com/brightmart/text_classification/commit/091ff9910839ba5053302383af99762c0c91a992 a07_Transformer/a2_multi_head_attention.py, a07_Transformer/a2_transformer_classification.py
import tensorflow as tf


class MultiHeadAttention(object):
    """linearly project q, k, v h times (to d_k, d_k, d_v), attend per head, concatenate, project."""

    def __init__(self, Q, K_s, V_s, d_model, d_k, d_v, sequence_length, h, mask=None, dropout_rate=0.1):
        self.d_model = d_model
        self.d_k = d_k
        self.d_v = d_v
        self.sequence_length = sequence_length
        self.h = h
        self.Q, self.K_s, self.V_s = Q, K_s, V_s
        self.mask = mask
        self.dropout_rate = dropout_rate

    def multi_head_attention_fn(self):
        q = tf.layers.dense(self.Q, units=self.d_model)  # [batch, seq, d_model]
        k = tf.layers.dense(self.K_s, units=self.d_model)
        v = tf.layers.dense(self.V_s, units=self.d_model)
        out = self.scaled_dot_product_attention_batch(q, k, v)  # [batch, h, seq, d_k]
        _, _, length, _ = out.get_shape().as_list()
        out = tf.reshape(out, shape=(-1, length, self.d_model))
        return tf.layers.dense(out, units=self.d_model)

    def scaled_dot_product_attention_batch_mine(self, Q, K_s, V_s):
        q_heads = tf.stack(tf.split(Q, self.h, axis=2), axis=1)  # [batch, h, seq, d_k]
        k_heads = tf.stack(tf.split(K_s, self.h, axis=2), axis=1)
        v_heads = tf.stack(tf.split(V_s, self.h, axis=2), axis=1)
        dot_product = tf.multiply(q_heads, k_heads)  # [batch, h, seq, d_k]
        dot_product = dot_product * (1.0 / tf.sqrt(tf.cast(self.d_model, tf.float32)))  # expect: ATT004
        dot_product = tf.reduce_sum(dot_product, axis=-1, keep_dims=True)  # [batch, h, seq, 1]
        if self.mask is not None:
            mask = tf.expand_dims(tf.expand_dims(self.mask, axis=-1), axis=1)  # [batch, 1, seq, 1]
            dot_product = dot_product + mask
        p = tf.nn.softmax(dot_product)  # expect: ATT001
        return tf.multiply(p, v_heads)

    def scaled_dot_product_attention_batch(self, Q, K_s, V_s):
        q_heads = tf.stack(tf.split(Q, self.h, axis=2), axis=1)  # [batch, h, seq, d_k]
        k_heads = tf.stack(tf.split(K_s, self.h, axis=2), axis=1)
        v_heads = tf.stack(tf.split(V_s, self.h, axis=2), axis=1)
        dot_product = tf.matmul(q_heads, k_heads, transpose_b=True)  # [batch, h, seq, seq]
        dot_product = dot_product * (1.0 / tf.sqrt(tf.cast(self.d_model, tf.float32)))  # expect: ATT004
        if self.mask is not None:
            mask_expand = tf.expand_dims(tf.expand_dims(self.mask, axis=0), axis=0)  # [1, 1, seq, seq]
            dot_product = dot_product + mask_expand
        weights = tf.nn.softmax(dot_product)
        weights = tf.nn.dropout(weights, 1.0 - self.dropout_rate)
        return tf.matmul(weights, v_heads)
