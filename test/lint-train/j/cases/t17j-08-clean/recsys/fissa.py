import tensorflow as tf
from tensorflow.keras import Model
from tensorflow.keras.layers import Dropout, Embedding, LayerNormalization

from recsys.layers import LocationBasedAttention


class FISSA(Model):
    def __init__(self, item_num, embed_dim, seq_len, dnn_dropout=0.0):
        super().__init__()
        self.seq_len = seq_len
        self.item_embedding = Embedding(item_num + 1, embed_dim, mask_zero=False)
        self.pos_embedding = Embedding(seq_len, embed_dim)
        self.dropout = Dropout(dnn_dropout)
        self.layer_norm = LayerNormalization(epsilon=1e-6)
        self.lba = LocationBasedAttention(dnn_dropout)

    def call(self, inputs):
        seq_embed = self.item_embedding(inputs["click_seq"])  # (None, seq_len, dim)
        mask = tf.expand_dims(tf.cast(tf.not_equal(inputs["click_seq"], 0), dtype=tf.float32), axis=-1)
        seq_embed += self.pos_embedding(tf.range(self.seq_len))
        seq_embed = self.layer_norm(self.dropout(seq_embed))
        global_info = self.lba([seq_embed, seq_embed, mask])  # (None, dim)
        target = self.item_embedding(inputs["pos_item"])  # (None, dim)
        return tf.reduce_sum(global_info * target, axis=-1)
