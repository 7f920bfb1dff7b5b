# case: b33-08-clean
# modelled-on: nii-yamagishilab/self-attention-tacotron https://github.com/nii-yamagishilab/self-attention-tacotron/commit/9ee745b0a9dbb65183d6076a0c5ec6d7f0c0e414
# label: correct
# class: clean
# pattern: self-attention Tacotron (TensorFlow 1, text-to-speech): the decoder refines the mel frames of the RNN decoder with SelfAttentionTransformer layers built with use_subsequent_mask=True; the attention mechanism takes (B, heads, T, C) keys and values, computes tf.matmul(query, keys, transpose_b=True) / sqrt(C), keeps the scores where a boolean causal mask from tf.matrix_band_part(ones, -1, 0) is True (tf.where(mask, score, -inf * ones_like(score))), and runs tf.nn.softmax(x, axis=-1) over (B, heads, T_query, T_memory)
# why: correct: band_part(ones, -1, 0) is the lower triangle including the diagonal, True on the frames a query may see, and tf.where keeps the scores exactly there (every row keeps its diagonal, so the -inf fill never empties a row); transpose_b=True transposes the last two axes of the (B, heads, T, C) keys; the scale is the per-head width C (the query's last axis); the softmax runs over the memory axis
# looks-like: ATT002, ATT003, ATT005, ATT007
# source: https://github.com/nii-yamagishilab/self-attention-tacotron https://github.com/nii-yamagishilab/self-attention-tacotron/commit/9ee745b0a9dbb65183d6076a0c5ec6d7f0c0e414 modules/self_attention.py
from functools import reduce

import numpy as np
import tensorflow as tf
from tensorflow.contrib.seq2seq.python.ops.attention_wrapper import AttentionMechanism


class ScaledDotProductAttentionMechanism(AttentionMechanism):
    def __init__(self, keys, values, num_heads, drop_rate=0.0, is_training=False, use_subsequent_mask=False):
        self._keys = keys  # (B, num_heads, T, C)
        self._values = values
        self.num_heads = num_heads
        self.drop_rate = drop_rate
        self.is_training = is_training
        self.use_subsequent_mask = use_subsequent_mask

    @property
    def values(self):
        return self._values

    @property
    def keys(self):
        return self._keys

    def __call__(self, query, memory_sequence_length=None):
        # Q K^T
        x = tf.matmul(query, self.keys, transpose_b=True)
        # scale by the per-head width
        s = tf.cast(tf.shape(query)[-1], dtype=query.dtype)
        x = x / tf.sqrt(s)
        x = self.apply_subsequent_mask(x) if self.use_subsequent_mask else x
        # softmax over the memory axis: (B, num_heads, T_query, T_memory)
        x = tf.nn.softmax(x, axis=-1)
        alignment_scores = x
        x = tf.layers.dropout(x, rate=self.drop_rate, training=self.is_training)
        return tf.matmul(x, self.values), alignment_scores

    def apply_subsequent_mask(self, score, score_mask_value=-np.inf):
        batch_size = tf.shape(self.keys)[0]
        max_length = tf.shape(self.keys)[2]
        score_mask = tf.ones([batch_size, self.num_heads, 1, 1], dtype=tf.bool) & tf.matrix_band_part(
            tf.ones([max_length, max_length], dtype=tf.bool), -1, 0)
        score_mask_values = score_mask_value * tf.ones_like(score)
        return tf.where(score_mask, score, score_mask_values)


class MultiHeadAttention(tf.layers.Layer):
    def __init__(self, model_dim, num_heads, drop_rate, is_training, use_subsequent_mask=False,
                 trainable=True, name=None, dtype=None, **kwargs):
        super(MultiHeadAttention, self).__init__(trainable=trainable, name=name, dtype=dtype, **kwargs)
        assert model_dim % num_heads == 0
        self.num_heads = num_heads
        self.head_dim = model_dim // num_heads
        self.drop_rate = drop_rate
        self.is_training = is_training
        self.use_subsequent_mask = use_subsequent_mask
        self.query_projection = tf.layers.Dense(model_dim, dtype=dtype)
        self.key_projection = tf.layers.Dense(model_dim, dtype=dtype)
        self.value_projection = tf.layers.Dense(model_dim, dtype=dtype)
        self.output_projection = tf.layers.Dense(model_dim, dtype=dtype)

    def _split_heads(self, x, head_shape):
        # (B, T, model_dim) -> (B, T, num_heads, head_dim) -> (B, num_heads, T, head_dim)
        x = tf.transpose(tf.reshape(x, shape=head_shape), perm=[0, 2, 1, 3])
        x.set_shape([None, self.num_heads, None, self.head_dim])
        return x

    def call(self, inputs, memory_sequence_length=None):
        key, value, query = inputs
        shape = tf.shape(key)
        head_shape = [shape[0], shape[1], self.num_heads, self.head_dim]
        attention_mechanism = ScaledDotProductAttentionMechanism(
            self._split_heads(self.key_projection(key), head_shape),
            self._split_heads(self.value_projection(value), head_shape),
            self.num_heads, drop_rate=self.drop_rate, is_training=self.is_training,
            use_subsequent_mask=self.use_subsequent_mask)
        x, alignment = attention_mechanism(self._split_heads(self.query_projection(query), head_shape),
                                           memory_sequence_length=memory_sequence_length)
        x = tf.reshape(tf.transpose(x, perm=[0, 2, 1, 3]), shape=[shape[0], shape[1], self.num_heads * self.head_dim])
        alignment = [alignment[:, i, :, :] for i in range(self.num_heads)]
        return self.output_projection(x), alignment


class SelfAttentionTransformer(tf.layers.Layer):
    def __init__(self, is_training, out_units=32, self_attention_out_units=256, self_attention_num_heads=2,
                 self_attention_drop_rate=0.05, use_subsequent_mask=False, trainable=True, name=None, dtype=None,
                 **kwargs):
        super(SelfAttentionTransformer, self).__init__(trainable=trainable, name=name, dtype=dtype, **kwargs)
        self.self_attention = MultiHeadAttention(self_attention_out_units, self_attention_num_heads,
                                                 self_attention_drop_rate, is_training,
                                                 use_subsequent_mask=use_subsequent_mask, dtype=dtype)
        self.transform_layers = [tf.layers.Dense(out_units, activation=tf.nn.tanh, dtype=dtype)]

    def call(self, inputs, memory_sequence_length=None):
        output, alignment = self.self_attention((inputs, inputs, inputs),
                                                memory_sequence_length=memory_sequence_length)
        transformed = reduce(lambda acc, l: l(acc), self.transform_layers, output)
        return inputs + transformed, alignment


def decoder_self_attention_stack(is_training, num_hops, units, num_heads, drop_rate, dtype=None):
    # the mel decoder refines its RNN outputs with causal self-attention
    return [SelfAttentionTransformer(is_training, out_units=units, self_attention_out_units=units,
                                     self_attention_num_heads=num_heads, self_attention_drop_rate=drop_rate,
                                     use_subsequent_mask=True, dtype=dtype)
            for _ in range(num_hops)]
