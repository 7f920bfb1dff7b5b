import tensorflow as tf
from keras.layers import Dense, Dropout, Layer, LayerNormalization

from model.components.attention import MultiHeadAttention


class DecoderSelfAttentionLayer(Layer):
    def __init__(self, embedding_dim: int, heads: int, d_ff: int, dropout_rate: float, eps: float):
        super().__init__()
        self.norm_attn = LayerNormalization(epsilon=eps)
        self.norm_ffn = LayerNormalization(epsilon=eps)
        self.masked_multi_head_attention = MultiHeadAttention(heads=heads, embedding_dim=embedding_dim)
        self.ffn_in = Dense(d_ff, activation="relu")
        self.ffn_out = Dense(embedding_dim)
        self.drop_attn = Dropout(rate=dropout_rate)
        self.drop_ffn = Dropout(rate=dropout_rate)

    def call(self, tensor: tf.Tensor, look_ahead_mask: tf.Tensor = None, is_train: bool = False):
        normed = self.norm_attn(tensor)
        attended, _ = self.masked_multi_head_attention(normed, normed, normed, look_ahead_mask)
        tensor = tensor + self.drop_attn(attended, training=is_train)
        ffn = self.ffn_out(self.ffn_in(self.norm_ffn(tensor)))
        return tensor + self.drop_ffn(ffn, training=is_train)
