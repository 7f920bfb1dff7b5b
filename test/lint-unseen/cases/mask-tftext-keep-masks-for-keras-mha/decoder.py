# case: mask-tftext-keep-masks-for-keras-mha
# modelled-on: tensorflow/text https://github.com/tensorflow/text/pull/894
# label: correct
# class: fixed
# pattern: the same two-file workspace with the masks rewritten for Keras: masks.py builds keep masks (not_equal(seq, 0), band_part lower triangle) and combines them with tf.minimum, and the decoder passes them as attention_mask to tf.keras.layers.MultiHeadAttention
# why: Keras MultiHeadAttention keeps the positions where attention_mask is 1; the helpers now return 1 on real tokens and on and below the diagonal, and tf.minimum keeps a position only if both masks keep it, as the convention documented in the PR requires
# looks-like: ATT002
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
            attention_mask=look_ahead_mask,
            training=training)
        out1 = self.layernorm1(self.dropout1(attn1, training=training) + x)

        attn2 = self.mha2(
            out1, enc_output,
            attention_mask=padding_mask,
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
