# case: b31-06-clean
# modelled-on: akanyaani/universal-transformer-tf2.0 https://github.com/akanyaani/universal-transformer-tf2.0/commit/19aa44718a0145cc4a1a60e52637fb071aa70a04
# label: correct
# class: clean
# pattern: a TensorFlow 2 Universal Transformer: utils/tf_utils.py builds masks in the 1 = blocked convention (a padding mask cast from tf.equal(seq, 0), a look-ahead mask 1 - band_part(ones, -1, 0), combined with tf.maximum), and the Keras multi-head attention layer here multiplies q by k with transpose_b=True, optionally divides by sqrt(depth), adds mask * -1e9 and takes tf.nn.softmax over the last axis; the encoder and decoder layers call it for self- and cross-attention
# why: correct: the masks hold 1 exactly at padded keys and future keys, so adding mask * -1e9 pushes only those logits down before the softmax; transpose_b=True contracts the per-head depth, the divisor is sqrt of the per-head depth, and axis=-1 is the key axis; the model runs in float32, where -1e9 is representable
# looks-like: ATT002, ATT003, ATT004, ATT007
# source: https://github.com/akanyaani/universal-transformer-tf2.0 https://github.com/akanyaani/universal-transformer-tf2.0/commit/19aa44718a0145cc4a1a60e52637fb071aa70a04 layers/attention_layer.py
import tensorflow as tf


class Conv1d(tf.keras.layers.Layer):
    """Position-wise projection written as a matrix multiply over the flattened positions."""

    def __init__(self, hidden_size, filter_size, weights_init_stdev=0.02):
        super(Conv1d, self).__init__()
        self.hidden_size = hidden_size
        self.filter_size = filter_size
        self.weights_init_stdev = weights_init_stdev

    def build(self, input_shape):
        self.weight = self.add_weight("conv1d_weights", shape=[self.hidden_size, self.filter_size],
                                      initializer=tf.random_normal_initializer(stddev=self.weights_init_stdev))
        self.bias = self.add_weight("conv1d_biases", shape=[self.filter_size], initializer="zeros")

    def call(self, inputs):
        output_shape = [tf.shape(inputs)[0], tf.shape(inputs)[1], self.filter_size]
        outputs = tf.matmul(tf.reshape(inputs, [-1, self.hidden_size]), self.weight) + self.bias
        return tf.reshape(outputs, output_shape)


class MultiHeadAttention(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads, att_dropout=0.1, residual_dropout=0.1, scale=True):
        super(MultiHeadAttention, self).__init__()
        self.num_heads = num_heads
        self.d_model = d_model
        self.att_dropout = att_dropout
        self.residual_dropout = residual_dropout
        self.scale = scale
        assert d_model % self.num_heads == 0
        self.depth = d_model // self.num_heads

        self.wq = tf.keras.layers.Dense(d_model)
        self.wk = tf.keras.layers.Dense(d_model)
        self.wv = tf.keras.layers.Dense(d_model)
        self.c_proj = Conv1d(self.d_model, self.d_model)

    def multihead_attention(self, q, k, v, training, mask=None):
        logits = tf.matmul(q, k, transpose_b=True)  # (..., seq_len_q, seq_len_k)
        if self.scale:
            dk = tf.cast(tf.shape(k)[-1], tf.float32)
            logits = logits / tf.math.sqrt(dk)

        if mask is not None:
            logits += (mask * -1e9)

        attention_weights = tf.nn.softmax(logits, axis=-1)
        if training:
            attention_weights = tf.nn.dropout(attention_weights, rate=self.att_dropout, name="attn_dropout")
        return tf.matmul(attention_weights, v), attention_weights

    def split_heads(self, x):
        batch_size = tf.shape(x)[0]
        x = tf.reshape(x, (batch_size, -1, self.num_heads, self.depth))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def merge_heads(self, x):
        batch_size = tf.shape(x)[0]
        x = tf.transpose(x, perm=[0, 2, 1, 3])
        return tf.reshape(x, (batch_size, -1, self.d_model))

    def call(self, query, key, value, mask=None, training=True):
        query = self.split_heads(self.wq(query))
        key = self.split_heads(self.wk(key))
        value = self.split_heads(self.wv(value))
        attended, _ = self.multihead_attention(query, key, value, training, mask)
        output = self.c_proj(self.merge_heads(attended))
        if training:
            output = tf.nn.dropout(output, rate=self.residual_dropout, name="resid_dropout")
        return output
