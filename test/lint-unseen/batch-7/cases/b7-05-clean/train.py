import tensorflow as tf

from attention import MultiheadAttention
from masking import create_masks


class TinyDecoderLayer(tf.keras.layers.Layer):
    def __init__(self, H=8, d_model=512, dk=64, dv=64):
        super().__init__()
        self.self_attn = MultiheadAttention(H, d_model, dk, dv)
        self.cross_attn = MultiheadAttention(H, d_model, dk, dv)
        self.norm1 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.norm2 = tf.keras.layers.LayerNormalization(epsilon=1e-6)

    def call(self, y, enc_out, look_ahead_mask, padding_mask):
        y = self.norm1(y + self.self_attn(y, y, y, look_ahead_mask))
        return self.norm2(y + self.cross_attn(y, enc_out, enc_out, padding_mask))


def train_step(embed, encoder_layer, decoder_layer, head, optimizer, inp, tar):
    tar_inp, tar_real = tar[:, :-1], tar[:, 1:]
    enc_mask, combined_mask, dec_mask = create_masks(inp, tar_inp)
    with tf.GradientTape() as tape:
        x = embed(inp)
        enc_out = encoder_layer(x, x, x, enc_mask)
        dec_out = decoder_layer(embed(tar_inp), enc_out, combined_mask, dec_mask)
        logits = head(dec_out)
        loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(tar_real, logits, from_logits=True))
    grads = tape.gradient(loss, tape.watched_variables())
    optimizer.apply_gradients(zip(grads, tape.watched_variables()))
    return loss
