import tensorflow as tf

from mt.attention import EncoderDecoderAttention, SelfAttention


class Encoder:
    def __init__(self, input_nums, hidden_nums, output_nums, multi_head):
        self.attn = SelfAttention(input_nums, hidden_nums, output_nums, mask=False, multi_head=multi_head)

    def __call__(self, x):
        z, ks, vs = self.attn(x)
        return tf.keras.layers.LayerNormalization()(x + z), ks, vs


class Decoder:
    def __init__(self, input_nums, hidden_nums, output_nums, multi_head):
        self.self_attn = SelfAttention(input_nums, hidden_nums, output_nums, mask=True, multi_head=multi_head)
        self.cross_attn = EncoderDecoderAttention(input_nums, hidden_nums, output_nums, multi_head=multi_head)

    def __call__(self, y, enc_ks, enc_vs):
        z, _, _ = self.self_attn(y)
        y = tf.keras.layers.LayerNormalization()(y + z)
        c, _, _ = self.cross_attn(y, enc_ks, enc_vs)
        return tf.keras.layers.LayerNormalization()(y + c)


def build(multi_head=2):
    input_nums = 8  # embedding width
    num_hiddens = 16  # width of the q, k, v projections
    return Encoder(input_nums, num_hiddens, input_nums, multi_head), Decoder(input_nums, num_hiddens, input_nums, multi_head)
