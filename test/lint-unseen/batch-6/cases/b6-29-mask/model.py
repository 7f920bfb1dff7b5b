import tensorflow as tf

from layers import Decoder
from utils import create_look_ahead_mask


class Informer(tf.keras.Model):
    def __init__(self, encoder, c_out, pred_len, d_model=512, num_heads=8, d_ff=2048, num_decoder_layers=1, dropout_rate=0.05):
        super().__init__()
        self.encoder = encoder
        self.decoder = Decoder(num_decoder_layers, d_model, num_heads, d_ff, dropout_rate)
        self.projection = tf.keras.layers.Dense(c_out, activation="linear")
        self.pred_len = pred_len

    def call(self, inputs, training=False):
        enc_input, dec_input = inputs
        enc_output = self.encoder(enc_input, training=training)
        decoder_seq_len = tf.shape(dec_input)[1]
        look_ahead_mask = create_look_ahead_mask(decoder_seq_len)
        dec_output = self.decoder(dec_input, enc_output, look_ahead_mask, None, training=training)
        return self.projection(dec_output[:, -self.pred_len :, :])
