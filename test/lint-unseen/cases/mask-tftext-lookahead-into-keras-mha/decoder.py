# case: mask-tftext-lookahead-into-keras-mha
# modelled-on: tensorflow/text https://github.com/tensorflow/text/pull/894
# label: buggy
# class: real-bug
# pattern: a two-file workspace: the tutorial's mask helpers in masks.py build masks with 1 = do not attend (tf.math.equal(seq, 0) and 1 - band_part), combined with tf.maximum; the decoder swaps the tutorial's own attention layer for tf.keras.layers.MultiHeadAttention and passes the masks as attention_mask
# why: Keras MultiHeadAttention's attention_mask means 1 = attend, the opposite of the tutorial's masks, so every query attends only to the future and to the padding; the PR's author reports the model reaching near-zero loss by copying the next token, and the PR documents the inverted convention
# source: https://github.com/tensorflow/text https://github.com/tensorflow/text/commit/014d0079e1fc85533d726588ec28ea184005a674 docs/tutorials/transformer.ipynb
import tensorflow as tf

from masks import create_masks


class DecoderLayer(tf.keras.layers.Layer):
    def __init__(self, *, d_model, num_heads, dff, rate=0.1):
        super(DecoderLayer, self).__init__()
        self.mha1 = tf.keras.layers.MultiHeadAttention(num_heads=num_heads, key_dim=d_model // num_heads)
        self.mha2 = tf.keras.layers.MultiHeadAttention(num_heads=num_heads, key_dim=d_model // num_heads)
        self.ffn = tf.keras.Sequential([
            tf.keras.layers.Dense(dff, activation='relu'),
            tf.keras.layers.Dense(d_model),
        ])
        self.layernorm1 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.layernorm2 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.layernorm3 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.dropout1 = tf.keras.layers.Dropout(rate)
        self.dropout2 = tf.keras.layers.Dropout(rate)

    def call(self, x, enc_output, training, look_ahead_mask, padding_mask):
        # enc_output.shape == (batch_size, input_seq_len, d_model)
        attn1 = self.mha1(
            x, x,
            attention_mask=look_ahead_mask,  # expect: ATT002
            training=training)
        out1 = self.layernorm1(self.dropout1(attn1, training=training) + x)

        attn2 = self.mha2(
            out1, enc_output,
            attention_mask=padding_mask,  # expect: ATT002
            training=training)
        out2 = self.layernorm2(self.dropout2(attn2, training=training) + out1)
        return self.layernorm3(out2 + self.ffn(out2))


class Decoder(tf.keras.layers.Layer):
    def __init__(self, *, num_layers, d_model, num_heads, dff, target_vocab_size, rate=0.1):
        super(Decoder, self).__init__()
        self.embedding = tf.keras.layers.Embedding(target_vocab_size, d_model)
        self.dec_layers = [DecoderLayer(d_model=d_model, num_heads=num_heads, dff=dff, rate=rate) for _ in range(num_layers)]

    def call(self, inp, tar, enc_output, training):
        look_ahead_mask, padding_mask = create_masks(inp, tar)
        x = self.embedding(tar)
        for layer in self.dec_layers:
            x = layer(x, enc_output, training, look_ahead_mask, padding_mask)
        return x
