# case: b11-11-clean
# modelled-on: bojone/attention https://github.com/bojone/attention/commit/22e889f31475f9d0e9fd51a49ffb7f31bfcfd7ec
# label: correct
# class: clean
# pattern: a Keras multi-head attention layer fed [Q_seq, K_seq, V_seq, Q_len, V_len]: projections reshaped to (batch, heads, seq, size) with permute_dimensions, scores K.batch_dot(Q, K, axes=[3, 3]) / size_per_head ** 0.5, then the scores are permuted to (batch, keys, queries, heads) so that a length mask built from one_hot + cumsum along axis 1 can be subtracted as (1 - mask) * 1e12, permuted back, optionally given a causal band mask times 1e12, and softmaxed over the default last axis; the outputs are zeroed past each query length with the same helper in 'mul' mode
# why: correct: batch_dot with axes=[3, 3] contracts the feature axes, so no explicit key transpose is needed; (0, 3, 2, 1) is its own inverse, so after the second permute the keys are last again and the softmax runs over them; the length mask is 1 on real positions, so (1 - mask) * 1e12 subtracts only from padded keys; the band mask is 1 above the diagonal after ones - band_part(ones, -1, 0); the scale is the per-head size; what a naive linter could misread: ATT001 (a softmax with the default axis after two permutes), ATT002 (a keep mask turned additive by (1 - mask) * 1e12), ATT005 (no transpose of the keys), ATT007 (1e12 as the masking constant)
# looks-like: ATT001, ATT002, ATT005, ATT007
# source: https://github.com/bojone/attention https://github.com/bojone/attention/commit/22e889f31475f9d0e9fd51a49ffb7f31bfcfd7ec attention_keras.py
import tensorflow as tf
from keras import backend as K
from keras.layers import Layer


class MultiHeadAttention(Layer):
    def __init__(self, nb_head, size_per_head, mask_right=False, **kwargs):
        self.nb_head = nb_head
        self.size_per_head = size_per_head
        self.output_dim = nb_head * size_per_head
        self.mask_right = mask_right
        super().__init__(**kwargs)

    def build(self, input_shape):
        self.WQ = self.add_weight(name="WQ", shape=(input_shape[0][-1], self.output_dim), initializer="glorot_uniform")
        self.WK = self.add_weight(name="WK", shape=(input_shape[1][-1], self.output_dim), initializer="glorot_uniform")
        self.WV = self.add_weight(name="WV", shape=(input_shape[2][-1], self.output_dim), initializer="glorot_uniform")
        super().build(input_shape)

    def length_mask(self, inputs, seq_len, mode="mul"):
        # axis 1 of `inputs` is the sequence axis the lengths refer to
        if seq_len is None:
            return inputs
        mask = K.one_hot(seq_len[:, 0], K.shape(inputs)[1])
        mask = 1 - K.cumsum(mask, 1)  # 1 before the length, 0 after
        for _ in range(len(inputs.shape) - 2):
            mask = K.expand_dims(mask, 2)
        if mode == "mul":
            return inputs * mask
        return inputs - (1 - mask) * 1e12

    def split(self, x, w):
        x = K.dot(x, w)
        x = K.reshape(x, (-1, K.shape(x)[1], self.nb_head, self.size_per_head))
        return K.permute_dimensions(x, (0, 2, 1, 3))  # (batch, heads, seq, size)

    def call(self, x):
        if len(x) == 3:
            Q_seq, K_seq, V_seq = x
            Q_len, V_len = None, None
        else:
            Q_seq, K_seq, V_seq, Q_len, V_len = x
        Q_seq, K_seq, V_seq = self.split(Q_seq, self.WQ), self.split(K_seq, self.WK), self.split(V_seq, self.WV)
        A = K.batch_dot(Q_seq, K_seq, axes=[3, 3]) / self.size_per_head**0.5  # (batch, heads, q, k)
        A = K.permute_dimensions(A, (0, 3, 2, 1))  # (batch, k, q, heads)
        A = self.length_mask(A, V_len, "add")
        A = K.permute_dimensions(A, (0, 3, 2, 1))  # back to (batch, heads, q, k)
        if self.mask_right:
            ones = K.ones_like(A[:1, :1])
            future = (ones - tf.linalg.band_part(ones, -1, 0)) * 1e12
            A = A - future
        A = K.softmax(A)
        O_seq = K.batch_dot(A, V_seq, axes=[3, 2])
        O_seq = K.permute_dimensions(O_seq, (0, 2, 1, 3))
        O_seq = K.reshape(O_seq, (-1, K.shape(O_seq)[1], self.output_dim))
        return self.length_mask(O_seq, Q_len, "mul")

    def compute_output_shape(self, input_shape):
        return (input_shape[0][0], input_shape[0][1], self.output_dim)
