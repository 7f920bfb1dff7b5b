# case: t29v-10-clean
# modelled-on: gapaza/hydra-chess https://github.com/gapaza/hydra-chess/commit/ebd4b1e59ab8b228df9a9eab8ad72eb4f8809b05
# label: correct
# class: clean
# pattern: a Keras chess model (board patches + move tokens) with two customised tf.keras.layers.MultiHeadAttention subclasses: MultiHeadAttentionLSA (locality self-attention from "ViT for small-size datasets") keeps a trainable temperature tau initialised to sqrt(self._key_dim), multiplies the projected query by 1 / tau, scores with the parent's _dot_product_equation (key, query) and masks the diagonal; the visual encoder builds it with key_dim=config.embed_dim; AlibiMultiHeadAttention overrides _compute_attention to scale the query by 1 / math.sqrt(self._key_dim), add an ALiBi bias slope * arange(1 - key_length, 1) over the key axis (shape (1, heads, 1, key_length)), then the parent's masked softmax, with use_causal_mask=True in the decoder
# why: correct: Keras's key_dim is the size of each attention head (the query and key projections are (B, T, heads, key_dim)), so sqrt(key_dim) is the per-head scale even when key_dim is set to the embedding width (each head then projects to 256 features); LSA's learned tau starts at that value and is meant to move (the paper's learnable temperature); the einsum equation puts the keys last and the parent's softmax normalises over the key axes; ALiBi's bias measured from the last key differs from slope * (j - i) only by a per-query constant, which the softmax ignores, and the causal mask removes the keys after the query
# looks-like: ATT004, ATT003, ATT001
# source: https://github.com/gapaza/hydra-chess https://github.com/gapaza/hydra-chess/commit/ebd4b1e59ab8b228df9a9eab8ad72eb4f8809b05 hydra/board_attention/MultiHeadAttentionLSA.py, hydra/layers/VisualEncoder.py, hydra/alibi_decoder/AlibiMultiHeadAttention.py, hydra/alibi_decoder/AlibiBias.py
import math

import tensorflow as tf
from tensorflow.keras import layers

from . import config


class MultiHeadAttentionLSA(tf.keras.layers.MultiHeadAttention):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.total_length = config.vt_num_patches + config.seq_length

        # Diagonal attention mask: 1 everywhere except a token onto itself
        self.diag_attn_mask = 1 - tf.eye(self.total_length)
        self.diag_attn_mask = tf.cast([self.diag_attn_mask], dtype=tf.int8)

        # Learnable temperature scaling
        self.tau = tf.Variable(math.sqrt(float(self._key_dim)), trainable=True)

    def _compute_attention(self, query, key, value, attention_mask=None, training=None):
        query = tf.multiply(query, 1.0 / self.tau)
        attention_scores = tf.einsum(self._dot_product_equation, key, query)
        attention_scores = self._masked_softmax(attention_scores, self.diag_attn_mask)
        attention_scores_dropout = self._dropout_layer(attention_scores, training=training)
        attention_output = tf.einsum(self._combine_equation, attention_scores_dropout, value)
        return attention_output, attention_scores


class VisualEncoder(layers.Layer):
    def __init__(self):
        super(VisualEncoder, self).__init__()
        self.attn_lsa = MultiHeadAttentionLSA(num_heads=config.vt_heads, key_dim=config.embed_dim, dropout=0.1)
        self.dense_1 = layers.Dense(units=config.vt_dense_dim, activation=tf.nn.gelu)
        self.dense_2 = layers.Dense(units=config.embed_dim, activation=tf.nn.gelu)
        self.dropout_1 = layers.Dropout(0.1)
        self.dropout_2 = layers.Dropout(0.1)
        self.norm_1 = layers.LayerNormalization(epsilon=1e-6)
        self.norm_2 = layers.LayerNormalization(epsilon=1e-6)

    def call(self, encoded_patches):
        x1 = self.norm_1(encoded_patches)
        attention_output = self.attn_lsa(x1, x1)
        x2 = attention_output + encoded_patches
        x3 = self.dropout_1(self.dense_1(self.norm_2(x2)))
        x3 = self.dropout_2(self.dense_2(x3))
        return x3 + x2
