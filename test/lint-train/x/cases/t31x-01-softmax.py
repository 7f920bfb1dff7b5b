# case: t31x-01-softmax
# modelled-on: ElizavetaKharlova/seq2seq-solar-forecasting https://github.com/ElizavetaKharlova/seq2seq-solar-forecasting/commit/f41fa46ba3eca65b9ee4f905886f9a871a092b68
# label: buggy
# class: real-bug
# pattern: a Keras attention layer of a solar-power forecasting seq2seq (TensorFlow 2): Conv1D projections with causal padding, a Bahdanau branch (softmax over axis 1 of (batch, time, 1) energies) and a Transformer branch: tf.matmul(W_query(q), W_value(k), transpose_b=True) / sqrt(width), then tf.nn.softmax(score, axis=1), then, for self-attention, tf.multiply(score, mask) with a causal mask built in the same class as -inf above the diagonal and 1.0 elsewhere
# why: buggy: the Transformer scores are (batch, len_query, len_key), so axis=1 normalises over the queries, not the keys (the authors later switched to axis=-1 "over key dimension"); and the causal mask is multiplied into the weights after the softmax, so the future is not removed before normalisation (the -inf entries even turn the weights into -inf / NaN); the mask has to be added to the scores before the softmax. The Bahdanau branch's axis=1 is right ((batch, time, 1) energies)
# source: https://github.com/ElizavetaKharlova/seq2seq-solar-forecasting https://github.com/ElizavetaKharlova/seq2seq-solar-forecasting/commit/f41fa46ba3eca65b9ee4f905886f9a871a092b68 Building_Blocks.py
import tensorflow as tf


class Attention(tf.keras.layers.Layer):
    """Bahdanau or Transformer style attention; with kernel/stride > 1 the projections are convolutional."""

    def __init__(self, units, mode='Transformer', only_context=True, query_kernel=1, query_stride=1,
                 key_kernel=1, key_stride=1):
        super().__init__()
        self.mode = mode
        self.only_context = only_context
        self.W_query = tf.keras.layers.Conv1D(units, strides=query_stride, kernel_size=query_kernel,
                                              padding='causal', use_bias=False)
        self.W_value = tf.keras.layers.Conv1D(units, strides=1, kernel_size=1, padding='causal', use_bias=False)
        if mode == 'Bahdanau':
            self.V = tf.keras.layers.Dense(1)
        elif mode == 'Transformer':
            self.W_key = tf.keras.layers.Conv1D(units, strides=key_stride, kernel_size=key_kernel,
                                                padding='causal', use_bias=False)

    def build_mask(self, input_shape):
        # -inf strictly above the diagonal, 1.0 on and below it
        fill = tf.ones(shape=[input_shape[1], input_shape[1]], dtype=tf.float32)
        upper = tf.linalg.band_part(fill, 0, -1) - tf.linalg.band_part(fill, 0, 0)
        return tf.where(upper > 0, x=float('-inf'), y=1.0)

    def call(self, query, value=None, key=None):
        if value is None:
            value = query
            mask = self.build_mask(query.shape)
            self_attention = True
        else:
            self_attention = False
        if key is None:
            key = value

        if self.mode == 'Bahdanau':
            # energies (batch, max_length, 1): softmax over the time axis
            attention_weights = tf.nn.softmax(self.V(tf.nn.tanh(self.W_query(query) + self.W_value(key))), axis=1)
            context_vector = attention_weights * value
        else:
            if len(query.shape) < len(key.shape):
                query = tf.expand_dims(query, 1)
            # (len_query, dims) matmul (dims, len_key) = (len_query, len_key)
            score = tf.matmul(self.W_query(query), self.W_value(key), transpose_b=True)
            score = score / tf.math.sqrt(tf.cast(tf.shape(value)[-1], tf.float32))
            score = tf.nn.softmax(score, axis=1)  # expect: ATT001
            if self_attention:
                score = tf.multiply(score, mask)  # expect: ATT006
            attention_weights = score
            context_vector = tf.matmul(score, self.W_key(value))

        if self.only_context:
            return context_vector
        return context_vector, attention_weights
