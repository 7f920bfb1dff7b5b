# case: b33-05-causal
# modelled-on: CyberZHG/keras-transformer-xl https://github.com/CyberZHG/keras-transformer-xl/commit/7ed3de44d559a3579ece38953d8b196441c4c7a4
# label: buggy
# class: real-bug
# pattern: a Keras layer for Transformer-XL's relative multi-head self-attention: the queries are the current segment (seq_len tokens), the keys and values are the memories of the previous segment concatenated in front of it (prev_len + seq_len), content scores K.batch_dot(q + u, k, axes=2) plus relative-shifted position scores, divided by sqrt(units_head); the softmax is written out (exp(att - max), multiplied by a 0/1 causal mask built from indices <= upper and by the padding mask, then divided by its sum over the keys)
# why: buggy: the causal mask is aligned top-left, upper = arange(0, q_len): query i keeps keys 0..i, i.e. the first memory slots and at most the tokens up to i - prev_len, so with memories present a token cannot see the last prev_len tokens up to and including itself (with prev_len >= seq_len every query sees memories only); the mask is right only when there are no memories; the author's next commit ("Fix memories", 48866be) aligns it bottom-right with upper = arange(k_len - q_len, k_len). The scale, the contraction over the feature axis (batch_dot axes=2), the renormalisation after the masks and the key axis of the sums are right
# source: https://github.com/CyberZHG/keras-transformer-xl https://github.com/CyberZHG/keras-transformer-xl/commit/7ed3de44d559a3579ece38953d8b196441c4c7a4 keras_transformer_xl/rel_multi_head.py
import tensorflow as tf

from .backend import keras, activations, initializers
from .backend import backend as K

__all__ = ['RelativePartialMultiHeadSelfAttention']


class RelativePartialMultiHeadSelfAttention(keras.layers.Layer):
    """Relative multi-head self-attention of Transformer-XL.

    Inputs: the segment (batch, seq_len, units), the relative position embeddings
    (batch, prev_len + seq_len, units), the memories (batch, prev_len, units) and the two biases.
    """

    def __init__(self, units, num_head, activation=None, use_bias=False,
                 kernel_initializer='glorot_normal', bias_initializer='zeros', **kwargs):
        super(RelativePartialMultiHeadSelfAttention, self).__init__(**kwargs)
        self.supports_masking = True
        self.units = units
        self.num_head = num_head
        self.units_head = units // num_head
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)

    def compute_mask(self, inputs, mask=None):
        return mask

    def build(self, input_shape):
        for name, width in (('q', self.units), ('kv', self.units * 2), ('o', self.units), ('r', self.units)):
            setattr(self, 'kernel_' + name, self.add_weight(
                shape=(self.units, width), initializer=self.kernel_initializer, name='kernel_' + name))
            setattr(self, 'bias_' + name, self.add_weight(
                shape=(width,), initializer=self.bias_initializer, name='bias_' + name) if self.use_bias else None)
        super(RelativePartialMultiHeadSelfAttention, self).build(input_shape)

    def _reshape_to_batches(self, x):
        input_shape = K.shape(x)
        batch_size, seq_len = input_shape[0], input_shape[1]
        x = K.reshape(x, (batch_size, seq_len, self.num_head, self.units_head))
        x = K.permute_dimensions(x, [0, 2, 1, 3])
        return K.reshape(x, (batch_size * self.num_head, seq_len, self.units_head))

    def _reshape_from_batches(self, x):
        input_shape = K.shape(x)
        batch_size, seq_len, feature_dim = input_shape[0], input_shape[1], input_shape[2]
        x = K.reshape(x, (batch_size // self.num_head, self.num_head, seq_len, feature_dim))
        x = K.permute_dimensions(x, [0, 2, 1, 3])
        return K.reshape(x, (batch_size // self.num_head, seq_len, feature_dim * self.num_head))

    @staticmethod
    def _relative_shift(x):
        batch_size, q_len, k_len = K.shape(x)[0], K.shape(x)[1], K.shape(x)[2]
        x = tf.pad(x, [[0, 0], [0, 0], [1, 0]])               # (batch * n_head, seq_len, prev_len + seq_len + 1)
        x = K.reshape(x, (batch_size, k_len + 1, q_len))      # (batch * n_head, prev_len + seq_len + 1, seq_len)
        x = x[:, 1:, :]                                       # (batch * n_head, prev_len + seq_len, seq_len)
        return K.reshape(x, (batch_size, q_len, k_len))       # (batch * n_head, seq_len, prev_len + seq_len)

    def compute_output_shape(self, input_shape):
        return input_shape[0]

    def call(self, inputs, mask=None):
        inputs, relatives, memories, bias_context, bias_relative = inputs
        full = K.concatenate([memories, inputs], axis=1)      # (batch, prev_len + seq_len, units)
        w_q = K.dot(inputs, self.kernel_q)                    # (batch, seq_len, units)
        w_kv = K.dot(full, self.kernel_kv)                    # (batch, prev_len + seq_len, units * 2)
        w_r = K.dot(relatives, self.kernel_r)                 # (batch, prev_len + seq_len, units)
        if self.use_bias:
            w_q = K.bias_add(w_q, self.bias_q)
            w_kv = K.bias_add(w_kv, self.bias_kv)
            w_r = K.bias_add(w_r, self.bias_r)
        if self.activation is not None:
            w_q = self.activation(w_q)
            w_kv = self.activation(w_kv)
            w_r = self.activation(w_r)

        w_k = w_kv[:, :, :self.units]                         # (batch, prev_len + seq_len, units)
        w_v = w_kv[:, :, self.units:]                         # (batch, prev_len + seq_len, units)

        w_qc = K.bias_add(w_q, bias_context)
        w_qc = self._reshape_to_batches(w_qc)                 # (batch * n_head, seq_len, units_head)
        w_k = self._reshape_to_batches(w_k)                   # (batch * n_head, prev_len + seq_len, units_head)
        a_context = K.batch_dot(w_qc, w_k, axes=2)            # (batch * n_head, seq_len, prev_len + seq_len)

        w_qr = K.bias_add(w_q, bias_relative)
        w_qr = self._reshape_to_batches(w_qr)                 # (batch * n_head, seq_len, units_head)
        w_r = self._reshape_to_batches(w_r)                   # (batch * n_head, prev_len + seq_len, units_head)
        a_relative = K.batch_dot(w_qr, w_r, axes=2)           # (batch * n_head, seq_len, prev_len + seq_len)
        a_relative = self._relative_shift(a_relative)         # (batch * n_head, seq_len, prev_len + seq_len)

        att = (a_context + a_relative) / K.sqrt(K.constant(self.units_head, dtype=K.floatx()))
        exp = K.exp(att - K.max(att, axis=-1, keepdims=True))

        q_len, k_len = K.shape(w_q)[1], K.shape(w_k)[1]
        indices = K.expand_dims(K.arange(0, k_len), axis=0)
        upper = K.expand_dims(K.arange(0, q_len), axis=-1)
        exp *= K.expand_dims(K.cast(indices <= upper, K.floatx()), axis=0)  # expect: ATT008
        if mask is not None:
            exp *= K.cast(K.expand_dims(mask, axis=-2), K.floatx())

        att = exp / K.sum(exp, axis=-1, keepdims=True)
        w_v = self._reshape_to_batches(w_v)                   # (batch * n_head, prev_len + seq_len, units_head)
        w_o = K.batch_dot(att, w_v)                           # (batch * n_head, seq_len, units_head)

        w_o = self._reshape_from_batches(w_o)                 # (batch, seq_len, units)
        w_o = K.dot(w_o, self.kernel_o)                       # (batch, seq_len, units)
        if self.use_bias:
            w_o = K.bias_add(w_o, self.bias_o)
        if self.activation is not None:
            w_o = self.activation(w_o)
        return w_o
