import tensorflow as tf
from tensorflow.keras.layers import Dense, LayerNormalization, TimeDistributed

from tsnet.layers.attention import HeadsAttention, SelfHeadsAttention
from tsnet.layers.masks import FutureMask

CONFIG = {"hidden": 64, "heads": 4, "dropout": 0.0, "decoder_layers": 1}


class DecoderBlock(tf.keras.layers.Layer):
    def __init__(self, hidden, heads, dropout):
        super().__init__()
        self.self_attn = SelfHeadsAttention(hidden, heads, dropout)
        self.cross_attn = HeadsAttention(hidden, heads, dropout)
        self.ffn = Dense(hidden, activation="relu")
        self.ln1 = LayerNormalization(epsilon=1e-7)
        self.ln2 = LayerNormalization(epsilon=1e-7)
        self.ln3 = LayerNormalization(epsilon=1e-7)

    def call(self, x, memory, x_mask=None, memory_mask=None):
        x = self.ln1(x + self.self_attn(x, mask=x_mask))
        x = self.ln2(x + self.cross_attn(x, memory, memory, mask=memory_mask))
        return self.ln3(x + self.ffn(x))


class Seq2SeqForecaster:
    def __init__(self, horizon, params=CONFIG):
        self.horizon = horizon
        self.params = params
        self.embed_enc = Dense(params["hidden"])
        self.embed_dec = Dense(params["hidden"])
        self.encoder = SelfHeadsAttention(params["hidden"], params["heads"], params["dropout"])
        self.blocks = [DecoderBlock(params["hidden"], params["heads"], params["dropout"]) for _ in range(params["decoder_layers"])]
        self.project = TimeDistributed(Dense(1))

    def __call__(self, inputs):
        x, encoder_feature, decoder_feature = inputs
        memory = self.encoder(self.embed_enc(tf.concat([x, encoder_feature], axis=-1)))

        batch, length = tf.shape(decoder_feature)[0], tf.shape(decoder_feature)[1]
        future = FutureMask(batch * self.params["heads"], length).mask
        h = self.embed_dec(decoder_feature)
        for block in self.blocks:
            h = block(h, memory, x_mask=future)
        return self.project(h)
