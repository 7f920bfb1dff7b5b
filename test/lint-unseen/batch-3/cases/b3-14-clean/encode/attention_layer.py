# case: b3-14-clean
# modelled-on: Shen-Lab/TALE https://github.com/Shen-Lab/TALE/issues/5
# label: correct
# class: clean
# pattern: a TF2 Keras multi-head attention layer for protein sequence encoding: q is multiplied in place by depth ** -0.5 (depth = hidden_size // num_heads), logits = matmul(q, k, transpose_b=True) plus an additive padding bias built in a utilities module (padding * -1e9), and tf.nn.softmax with the default axis; an optional decoding cache concatenates past keys and values
# why: q *= depth ** -0.5 is division by sqrt(depth), the head width (the reporter missed the minus sign and withdrew); the bias is 0 at tokens and -1e9 at padding, added before the softmax, in float32; the logits are (batch, heads, q_len, k_len), so the default last axis is the key axis
# looks-like: ATT002, ATT003, ATT004, ATT007
# source: https://github.com/Shen-Lab/TALE https://github.com/Shen-Lab/TALE/issues/5 src/Protein_Encode/attention_layer.py
import tensorflow as tf

from .model_utils import get_padding_bias


class Attention(tf.keras.layers.Layer):
    def __init__(self, hidden_size, num_heads, attention_dropout, train):
        super().__init__()
        self.hidden_size = hidden_size
        self.num_heads = num_heads
        self.attention_dropout = attention_dropout
        self.train = train
        self.q_dense_layer = tf.keras.layers.Dense(hidden_size, use_bias=False)
        self.k_dense_layer = tf.keras.layers.Dense(hidden_size, use_bias=False)
        self.v_dense_layer = tf.keras.layers.Dense(hidden_size, use_bias=False)
        self.output_dense_layer = tf.keras.layers.Dense(hidden_size, use_bias=False)

    def split_heads(self, x):
        batch_size, length = tf.shape(x)[0], tf.shape(x)[1]
        depth = self.hidden_size // self.num_heads
        x = tf.reshape(x, [batch_size, length, self.num_heads, depth])
        return tf.transpose(x, [0, 2, 1, 3])

    def combine_heads(self, x):
        batch_size, length = tf.shape(x)[0], tf.shape(x)[2]
        x = tf.transpose(x, [0, 2, 1, 3])
        return tf.reshape(x, [batch_size, length, self.hidden_size])

    def call(self, x, y, bias, cache=None):
        q = self.q_dense_layer(x)
        k = self.k_dense_layer(y)
        v = self.v_dense_layer(y)
        if cache is not None:
            k = tf.concat([cache["k"], k], axis=1)
            v = tf.concat([cache["v"], v], axis=1)
            cache["k"], cache["v"] = k, v

        q, k, v = self.split_heads(q), self.split_heads(k), self.split_heads(v)

        # scale q to keep the dot products from growing with the head width
        depth = self.hidden_size // self.num_heads
        q *= depth ** -0.5

        logits = tf.matmul(q, k, transpose_b=True)
        logits += bias
        weights = tf.nn.softmax(logits, name="attention_weights")
        if self.train:
            weights = tf.nn.dropout(weights, rate=self.attention_dropout)
        out = tf.matmul(weights, v)
        return self.output_dense_layer(self.combine_heads(out))


class SelfAttention(Attention):
    def call(self, x, bias, cache=None):
        return super().call(x, x, bias, cache)


def encode(layer, embedded, token_ids):
    bias = get_padding_bias(token_ids)
    return layer(embedded, bias)
