# case: t31x-07-clean
# modelled-on: jansam123/JIDENN https://github.com/jansam123/JIDENN/commit/59b8877edc656019ab986db8613e5498d8f77ca5
# label: correct
# class: clean
# pattern: a particle-physics jet tagger (quark vs gluon jets) in TensorFlow / Keras, a "DeParT" transformer over jet constituents: one qkv Dense, reshape to (B, N, 3, H, C // H) and transpose [2, 0, 3, 1, 4], scores tf.linalg.matmul(q, k, transpose_b=True) / (q.shape[-1] ** 0.5), talking heads (a Dense over the head axis before the softmax and another after it), pairwise particle-interaction features added as a bias, then keras.layers.Softmax()(scores, mask=mask); the stack builds the mask from the ragged-to-dense padding mask as mask[:, None, None, :] & mask[:, None, :, None] (True = real particle) and a class-attention mask with a True prepended for the class token
# why: correct: a Keras Softmax layer called with mask= keeps the entries where the mask is True and pushes the others to a large negative value, and the particle mask is True on real constituents, so padding is what gets hidden; q.shape[-1] is the per-head width C // H; transpose_b=True is the key transpose; the second talking-heads Dense mixes the normalised weights across heads on purpose (a learnt re-weighting after the softmax, not a mask), and the weights returned for inspection are the pure softmax
# looks-like: ATT002, ATT004, ATT005, ATT006
# source: https://github.com/jansam123/JIDENN https://github.com/jansam123/JIDENN/commit/59b8877edc656019ab986db8613e5498d8f77ca5 jidenn/models/DeParT.py
from typing import Optional

import tensorflow as tf
from tensorflow import keras


class TalkingMultiheadSelfAttention(keras.layers.Layer):
    def __init__(self, dim: int, heads: int, dropout: float = 0.0):
        super().__init__()
        self.dim, self.heads = dim, heads
        self.linear_qkv = keras.layers.Dense(dim * 3)
        self.linear_out = keras.layers.Dense(dim)
        self.linear_talking_1 = keras.layers.Dense(heads)
        self.linear_talking_2 = keras.layers.Dense(heads)
        self.dropout = keras.layers.Dropout(dropout)
        self.attn_drop = keras.layers.Dropout(dropout)

    def call(self, inputs: tf.Tensor, mask: tf.Tensor, interaction: Optional[tf.Tensor] = None, training: bool = False):
        B, N, C = tf.shape(inputs)[0], tf.shape(inputs)[1], tf.shape(inputs)[2]
        qkv = tf.reshape(self.linear_qkv(inputs), [B, N, 3, self.heads, C // self.heads])
        qkv = tf.transpose(qkv, [2, 0, 3, 1, 4])  # (3, B, H, N, C // H)
        q, k, v = qkv[0], qkv[1], qkv[2]

        attention_weights = tf.linalg.matmul(q, k, transpose_b=True) / (q.shape[-1] ** 0.5)  # (B, H, N, N)
        attention_weights = self.linear_talking_1(tf.transpose(attention_weights, [0, 2, 3, 1]))  # (B, N, N, H)
        attention_weights = tf.transpose(attention_weights, [0, 3, 1, 2])  # (B, H, N, N)
        if interaction is not None:
            attention_weights += tf.transpose(interaction, [0, 3, 1, 2])

        pure_attention = keras.layers.Softmax()(attention_weights, mask=mask)  # (B, H, N, N)
        attention = self.linear_talking_2(tf.transpose(pure_attention, [0, 2, 3, 1]))  # (B, N, N, H)
        attention = tf.transpose(attention, [0, 3, 1, 2])
        attention = self.attn_drop(attention, training=training)

        output = tf.linalg.matmul(attention, v)  # (B, H, N, C // H)
        output = tf.reshape(tf.transpose(output, [0, 2, 1, 3]), [B, N, C])
        return self.dropout(self.linear_out(output), training=training), pure_attention


class ParticleEncoder(keras.layers.Layer):
    def __init__(self, layers: int, dim: int, heads: int, dropout: float = 0.0):
        super().__init__()
        self.sa_layers = [TalkingMultiheadSelfAttention(dim, heads, dropout) for _ in range(layers)]
        self.norms = [keras.layers.LayerNormalization() for _ in range(layers)]

    def call(self, inputs: tf.Tensor, mask: tf.Tensor, interaction: Optional[tf.Tensor] = None):
        # mask: (B, N) bool, True on real particles (from a ragged batch made dense)
        sa_mask = mask[:, tf.newaxis, tf.newaxis, :] & mask[:, tf.newaxis, :, tf.newaxis]
        hidden = inputs
        attentions = []
        for layer, norm in zip(self.sa_layers, self.norms):
            attended, attention = layer(norm(hidden), sa_mask, interaction)
            hidden = hidden + attended
            attentions.append(attention)
        return hidden, attentions
