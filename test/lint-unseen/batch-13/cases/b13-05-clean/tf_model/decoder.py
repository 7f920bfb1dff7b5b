import tensorflow as tf

from tf_model.attention import MultiHeadAttention
from tf_model.masking import padding_mask, target_mask


class DecoderLayer(tf.keras.layers.Layer):
    def __init__(self, d_model: int, num_heads: int):
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, num_heads)
        self.cross_attn = MultiHeadAttention(d_model, num_heads)
        self.n1 = tf.keras.layers.LayerNormalization()
        self.n2 = tf.keras.layers.LayerNormalization()

    def call(self, x, memory, src_ids, tgt_ids, training=None):
        a, _ = self.self_attn(x, x, x, target_mask(tgt_ids), training=training)
        x = self.n1(x + a)
        c, _ = self.cross_attn(x, memory, memory, padding_mask(src_ids), training=training)
        return self.n2(x + c)
