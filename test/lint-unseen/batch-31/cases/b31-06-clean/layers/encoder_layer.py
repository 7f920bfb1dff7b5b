import tensorflow as tf

from layers.attention_layer import MultiHeadAttention, Conv1d
from utils.tf_utils import gelu


class EncoderLayer(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads, dff, dr_rate=0.1):
        super(EncoderLayer, self).__init__()
        self.mha = MultiHeadAttention(d_model, num_heads)
        self.ffn_in = Conv1d(d_model, dff)
        self.ffn_out = Conv1d(dff, d_model)
        self.layer_norm1 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.layer_norm2 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.dropout = tf.keras.layers.Dropout(dr_rate)

    def call(self, x, training, mask):
        out = self.mha(x, x, x, mask=mask, training=training)
        out1 = self.layer_norm1(x + self.dropout(out, training=training))
        ffn = self.ffn_out(gelu(self.ffn_in(out1)))
        return self.layer_norm2(out1 + self.dropout(ffn, training=training))


class DecoderLayer(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads, dff, dr_rate=0.1):
        super(DecoderLayer, self).__init__()
        self.mha1 = MultiHeadAttention(d_model, num_heads)
        self.mha2 = MultiHeadAttention(d_model, num_heads)
        self.ffn_in = Conv1d(d_model, dff)
        self.ffn_out = Conv1d(dff, d_model)
        self.norms = [tf.keras.layers.LayerNormalization(epsilon=1e-6) for _ in range(3)]

    def call(self, x, enc_output, training, mask, padding_mask=None):
        out1 = self.norms[0](x + self.mha1(x, x, x, mask=mask, training=training))
        out2 = self.norms[1](out1 + self.mha2(out1, enc_output, enc_output, mask=padding_mask, training=training))
        return self.norms[2](out2 + self.ffn_out(gelu(self.ffn_in(out2))))

