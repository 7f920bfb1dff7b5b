# case: t27t-04-scale
# modelled-on: stanleylsx/text_classifier_tf2 https://github.com/stanleylsx/text_classifier_tf2/commit/0f2909fee49a7daeb1c9fd4e7bd06bb9fb921a17
# label: buggy
# class: real-bug
# pattern: a Keras text classifier with a hand-written multi-head attention: widths from a config module (embedding_dim 300, head_num 12, so head_dim 25), a padding mask module returning tf.cast(tf.equal(seq, 0), float32)[:, None, None, :]; scores = tf.matmul(query, key, transpose_b=True); dk = self.head_dim ** -0.5; scores / tf.math.sqrt(dk); scores += mask * -1e9; softmax over the last axis
# why: buggy: the docstring calls it scaled dot-product attention, but dk already holds 1/sqrt(head_dim), and dividing by its square root multiplies the logits by head_dim ** 0.25 (about 2.24 for head_dim 25) instead of dividing them by sqrt(head_dim) = 5, so the logits are about 11 times too large; unfixed in the repository's history; the mask is right for TensorFlow's additive convention (1 at padding times -1e9, float32 only)
# source: https://github.com/stanleylsx/text_classifier_tf2 https://github.com/stanleylsx/text_classifier_tf2/commit/0f2909fee49a7daeb1c9fd4e7bd06bb9fb921a17 engines/models/Transformer.py
from abc import ABC

import numpy as np
import tensorflow as tf

from textcls.config import classifier_config
from textcls.mask import create_padding_mask


class PositionalEncoding(tf.keras.layers.Layer):
    def __init__(self, embedding_dim, seq_length):
        super().__init__()
        pe = np.array([[pos / np.power(10000, 2 * (i // 2) / embedding_dim) for i in range(embedding_dim)]
                       for pos in range(seq_length)])
        pe[:, 0::2] = np.sin(pe[:, 0::2])
        pe[:, 1::2] = np.cos(pe[:, 1::2])
        self.pe = pe

    def call(self, inputs):
        return inputs + self.pe


class MultiHeadAttention(tf.keras.layers.Layer):
    def __init__(self, embedding_dim):
        super().__init__()
        self.head_num = classifier_config['head_num']
        if embedding_dim % self.head_num != 0:
            raise ValueError('embedding_dim must be a multiple of head_num')
        self.head_dim = embedding_dim // self.head_num
        self.embedding_dim = embedding_dim
        self.W_Q = tf.keras.layers.Dense(embedding_dim)
        self.W_K = tf.keras.layers.Dense(embedding_dim)
        self.W_V = tf.keras.layers.Dense(embedding_dim)
        self.W_O = tf.keras.layers.Dense(embedding_dim)

    def scaled_dot_product_attention(self, query, key, value, mask):
        """Scaled dot-product attention."""
        matmul_qk = tf.matmul(query, key, transpose_b=True)  # [B, heads, Lq, Lk]
        dk = self.head_dim ** -0.5
        scaled_attention = matmul_qk / tf.math.sqrt(dk)  # expect: ATT004
        if mask is not None:
            scaled_attention += (mask * -1e9)
        attention_weights = tf.nn.softmax(scaled_attention, axis=-1)
        return tf.matmul(attention_weights, value)

    def split_head(self, tensor, batch_size):
        tensor = tf.reshape(tensor, (batch_size, -1, self.head_num, self.head_dim))
        return tf.transpose(tensor, perm=[0, 2, 1, 3])  # [B, heads, L, head_dim]

    def call(self, inputs, mask=None):
        batch_size = tf.shape(inputs)[0]
        query = self.split_head(self.W_Q(inputs), batch_size)
        key = self.split_head(self.W_K(inputs), batch_size)
        value = self.split_head(self.W_V(inputs), batch_size)
        z = self.scaled_dot_product_attention(query, key, value, mask)
        z = tf.reshape(tf.transpose(z, perm=[0, 2, 1, 3]), (batch_size, -1, self.embedding_dim))
        return self.W_O(z)


class Encoder(tf.keras.layers.Layer):
    def __init__(self, embedding_dim, dropout_rate):
        super().__init__()
        self.attention = MultiHeadAttention(embedding_dim)
        self.dense_1 = tf.keras.layers.Dense(classifier_config['hidden_dim'], activation='relu')
        self.dense_2 = tf.keras.layers.Dense(embedding_dim)
        self.norm_1 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.norm_2 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.drop_1 = tf.keras.layers.Dropout(dropout_rate)
        self.drop_2 = tf.keras.layers.Dropout(dropout_rate)

    def call(self, inputs, training, mask):
        out_1 = self.norm_1(inputs + self.drop_1(self.attention(inputs, mask), training=training))
        ffn = self.dense_2(self.dense_1(out_1))
        return self.norm_2(out_1 + self.drop_2(ffn, training=training))


class Transformer(tf.keras.Model, ABC):
    def __init__(self, num_classes, embedding_dim, vocab_size):
        super().__init__()
        dropout_rate = classifier_config['dropout_rate']
        seq_length = classifier_config['max_sequence_length']
        self.embedding = tf.keras.layers.Embedding(vocab_size + 1, embedding_dim, mask_zero=True)
        self.positional_encoder = PositionalEncoding(embedding_dim, seq_length)
        self.encoders = [Encoder(embedding_dim, dropout_rate) for _ in range(classifier_config['encoder_num'])]
        self.dropout = tf.keras.layers.Dropout(dropout_rate)
        self.avg_pool = tf.keras.layers.GlobalAvgPool1D()
        self.dense = tf.keras.layers.Dense(num_classes, activation='softmax')

    def call(self, inputs, training=None):
        mask = create_padding_mask(inputs)  # 1.0 at padding
        output = self.positional_encoder(self.embedding(inputs))
        for encoder in self.encoders:
            output = encoder(output, training, mask)
        output = self.dropout(output, training=training)
        return self.dense(self.avg_pool(output))
