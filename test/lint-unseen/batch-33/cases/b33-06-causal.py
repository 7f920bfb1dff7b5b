# case: b33-06-causal
# modelled-on: CyberZHG/keras-transformer-xl https://github.com/CyberZHG/keras-transformer-xl/commit/5498b13b6db04a6800046b75acf00d4a819c529e
# label: correct
# class: fixed
# pattern: the same Transformer-XL relative multi-head self-attention layer as it stands after the fix and later changes (tf.keras only, dropout on the attention weights, the padding mask tiled per head): keys and values over the memories concatenated in front of the segment, content plus relative-shifted position scores divided by sqrt(units_head), a written-out softmax whose exp(att - max) is multiplied by a causal 0/1 mask built from indices <= upper with upper = arange(k_len - q_len, k_len) and by the padding mask (ones over the memories), then divided by its sum over the keys
# why: correct: the causal mask is aligned bottom-right, so query i (token i of the segment, key position prev_len + i) keeps every memory and the tokens up to itself, which is what "Fix memories" (48866be) changed; the masks are applied to the exponentials before the normalising sum, so the kept weights still sum to 1 (the diagonal is always kept); batch_dot with axes=2 contracts the feature axis of (batch * heads, len, units_head) tensors, so no explicit transpose of the keys is needed; the scale is one head's width
# looks-like: ATT003, ATT005, ATT006, ATT008
# source: https://github.com/CyberZHG/keras-transformer-xl https://github.com/CyberZHG/keras-transformer-xl/commit/5498b13b6db04a6800046b75acf00d4a819c529e keras_transformer_xl/rel_multi_head.py
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import backend as K

__all__ = ['RelativePartialMultiHeadSelfAttention']


class RelativePartialMultiHeadSelfAttention(keras.layers.Layer):
    def __init__(self, units, num_head, attention_dropout=0.0, **kwargs):
        super(RelativePartialMultiHeadSelfAttention, self).__init__(**kwargs)
        self.supports_masking = True
        self.units = units
        self.num_head = num_head
        self.units_head = units // num_head
        self.attention_dropout = attention_dropout
        self.att_drop_layer = None
        if 0.0 < self.attention_dropout < 1.0:
            self.att_drop_layer = keras.layers.Dropout(self.attention_dropout)

    def compute_mask(self, inputs, mask=None):
        if mask is not None:
            return mask[0]

    def build(self, input_shape):
        init = keras.initializers.get('glorot_normal')
        self.kernel_q = self.add_weight(shape=(self.units, self.units), initializer=init, name='kernel_q')
        self.kernel_kv = self.add_weight(shape=(self.units, self.units * 2), initializer=init, name='kernel_kv')
        self.kernel_r = self.add_weight(shape=(self.units, self.units), initializer=init, name='kernel_r')
        self.kernel_o = self.add_weight(shape=(self.units, self.units), initializer=init, name='kernel_o')
        super(RelativePartialMultiHeadSelfAttention, self).build(input_shape)

    def _reshape_to_batches(self, x):
        # (batch, len, units) -> (batch * n_head, len, units_head)
        batch_size, seq_len = K.shape(x)[0], K.shape(x)[1]
        x = K.permute_dimensions(K.reshape(x, (batch_size, seq_len, self.num_head, self.units_head)), [0, 2, 1, 3])
        return K.reshape(x, (batch_size * self.num_head, seq_len, self.units_head))

    def _reshape_from_batches(self, x):
        batch_size, seq_len, feature_dim = K.shape(x)[0], K.shape(x)[1], K.shape(x)[2]
        x = K.permute_dimensions(K.reshape(x, (batch_size // self.num_head, self.num_head, seq_len, feature_dim)),
                                 [0, 2, 1, 3])
        return K.reshape(x, (batch_size // self.num_head, seq_len, feature_dim * self.num_head))

    def _reshape_mask(self, mask):
        seq_len = K.shape(mask)[1]
        mask = K.tile(K.expand_dims(mask, axis=1), [1, self.num_head, 1])
        return K.reshape(mask, (-1, seq_len))

    @staticmethod
    def _relative_shift(x):
        batch_size, q_len, k_len = K.shape(x)[0], K.shape(x)[1], K.shape(x)[2]
        x = tf.pad(x, [[0, 0], [0, 0], [1, 0]])
        x = K.reshape(x, (batch_size, k_len + 1, q_len))[:, 1:, :]
        return K.reshape(x, (batch_size, q_len, k_len))

    def compute_output_shape(self, input_shape):
        return input_shape[0]

    def call(self, inputs, mask=None, training=None):
        inputs, relatives, memories, bias_context, bias_relative = inputs
        full = K.concatenate([memories, inputs], axis=1)       # (batch, prev_len + seq_len, units)
        w_q = K.dot(inputs, self.kernel_q)                     # (batch, seq_len, units)
        w_kv = K.dot(full, self.kernel_kv)                     # (batch, prev_len + seq_len, units * 2)
        w_k, w_v = w_kv[:, :, :self.units], w_kv[:, :, self.units:]

        # position term: (q + v) . r, shifted so that column j is the offset to key j
        w_r = self._reshape_to_batches(K.dot(relatives, self.kernel_r))
        a_relative = K.batch_dot(self._reshape_to_batches(K.bias_add(w_q, bias_relative)), w_r, axes=2)
        a_relative = self._relative_shift(a_relative)          # (batch * n_head, seq_len, prev_len + seq_len)
        # content term: (q + u) . k
        w_k = self._reshape_to_batches(w_k)
        a_context = K.batch_dot(self._reshape_to_batches(K.bias_add(w_q, bias_context)), w_k, axes=2)

        att = (a_context + a_relative) / K.sqrt(K.constant(self.units_head, dtype=K.floatx()))
        exp = K.exp(att - K.max(att, axis=-1, keepdims=True))

        q_len, k_len = K.shape(w_q)[1], K.shape(w_k)[1]
        indices = K.expand_dims(K.arange(0, k_len), axis=0)
        upper = K.expand_dims(K.arange(k_len - q_len, k_len), axis=-1)
        exp *= K.expand_dims(K.cast(indices <= upper, K.floatx()), axis=0)
        if mask is not None and mask[0] is not None:
            mask = K.cast(mask[0], K.floatx())
            mask = K.concatenate([K.ones_like(memories[:, :, 0]), mask], axis=1)
            exp *= K.expand_dims(self._reshape_mask(mask), axis=1)

        att = exp / K.sum(exp, axis=-1, keepdims=True)
        if self.att_drop_layer is not None:
            att = self.att_drop_layer(att, training=training)
        w_o = K.batch_dot(att, self._reshape_to_batches(w_v))  # (batch * n_head, seq_len, units_head)
        w_o = K.dot(self._reshape_from_batches(w_o), self.kernel_o)

        input_shape = K.int_shape(inputs)
        if input_shape[1] is not None:
            w_o = K.reshape(w_o, (-1,) + input_shape[1:])
        return w_o
