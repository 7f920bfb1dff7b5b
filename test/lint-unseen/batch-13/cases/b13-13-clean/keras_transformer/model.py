import tensorflow as tf

from keras_transformer.layers.attention import MultiHeadAttention
from keras_transformer.masking import create_look_ahead_mask, create_padding_mask


class TransformerModel(tf.keras.Model):
    def __init__(self, src_vocab: int, tgt_vocab: int, d_model: int = 128, heads: int = 4):
        super().__init__()
        self.src_embed = tf.keras.layers.Embedding(src_vocab, d_model)
        self.tgt_embed = tf.keras.layers.Embedding(tgt_vocab, d_model)
        self.enc_attn = MultiHeadAttention(d_model, heads)
        self.dec_self = MultiHeadAttention(d_model, heads)
        self.dec_cross = MultiHeadAttention(d_model, heads)
        self.final_layer = tf.keras.layers.Dense(tgt_vocab)

    def call(self, inputs):
        src, tgt, src_mask, tgt_mask = inputs
        s = self.src_embed(src)
        memory = s + self.enc_attn(s, s, s, src_mask)
        y = self.tgt_embed(tgt)
        y = y + self.dec_self(y, y, y, tgt_mask)
        y = y + self.dec_cross(y, memory, memory, src_mask)
        return self.final_layer(y)

    def train_step(self, data):
        src, tgt = data
        tgt_in, tgt_out = tgt[:, :-1], tgt[:, 1:]
        src_mask = create_padding_mask(src, 0)
        tgt_pad_mask = create_padding_mask(tgt_in, 0)
        tgt_look_ahead_mask = create_look_ahead_mask(tf.shape(tgt_in)[1])
        tgt_mask = tf.maximum(tgt_pad_mask, tgt_look_ahead_mask)
        with tf.GradientTape() as tape:
            y_pred = self([src, tgt_in, src_mask, tgt_mask], training=True)
            loss = self.compiled_loss(tgt_out, y_pred, regularization_losses=self.losses)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}
