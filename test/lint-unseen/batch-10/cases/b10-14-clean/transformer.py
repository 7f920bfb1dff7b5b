# case: b10-14-clean
# modelled-on: mvysotskyi/translation-transformer https://github.com/mvysotskyi/translation-transformer/commit/0730443
# label: correct
# class: clean
# pattern: keep masks built in the Keras model (logical_not(equal(ids, 0)) as float, band_part(ones, -1, 0) for the look-ahead, combined with tf.minimum) and handed to keras.layers.MultiHeadAttention(attention_mask=...) in the layer modules
# why: Keras MultiHeadAttention's attention_mask is 1 where attention is allowed, the same polarity as both masks; band_part(ones, -1, 0) is the lower triangle including the diagonal, and the minimum of two keep masks is their intersection; the cross-attention gets the encoder's padding mask
# looks-like: ATT002
# source: https://github.com/mvysotskyi/translation-transformer https://github.com/mvysotskyi/translation-transformer/commit/0730443 transformer.py
import tensorflow as tf
from tensorflow import keras

from layers.decoder_layer import DecoderLayer
from layers.encoder_layer import EncoderLayer


class Transformer(keras.models.Model):
    def __init__(self, src_vocab, tgt_vocab, seq_len, d_model=256, num_heads=8, num_layers=2, d_ff=1024, **kwargs):
        super().__init__(**kwargs)
        self.seq_len = seq_len
        self.src_embed = keras.layers.Embedding(src_vocab, d_model)
        self.tgt_embed = keras.layers.Embedding(tgt_vocab, d_model)
        self.encoder_layers = [EncoderLayer(d_model, num_heads, d_ff) for _ in range(num_layers)]
        self.decoder_layers = [DecoderLayer(d_model, num_heads, d_ff) for _ in range(num_layers)]
        self.final_layer = keras.layers.Dense(tgt_vocab)

    def padding_mask(self, inputs):
        """1.0 on real tokens, 0.0 on padding (id 0): (batch, 1, 1, seq_len)."""
        mask = tf.math.logical_not(tf.math.equal(inputs, 0))
        mask = tf.cast(mask, dtype=tf.float32)
        return mask[:, tf.newaxis, tf.newaxis, :]

    def look_ahead_mask(self, size):
        """1.0 on and below the diagonal."""
        return tf.linalg.band_part(tf.ones((size, size)), -1, 0)

    def call(self, inputs, training=True):
        encoder_input, decoder_input = inputs
        encoder_padding_mask = self.padding_mask(encoder_input)
        decoder_padding_mask = self.padding_mask(decoder_input)
        look_ahead_mask = tf.minimum(decoder_padding_mask, self.look_ahead_mask(self.seq_len))

        x = self.src_embed(encoder_input)
        for layer in self.encoder_layers:
            x = layer(x, encoder_padding_mask, training=training)
        y = self.tgt_embed(decoder_input)
        for layer in self.decoder_layers:
            y = layer(y, x, look_ahead_mask, encoder_padding_mask, training=training)
        return self.final_layer(y)
