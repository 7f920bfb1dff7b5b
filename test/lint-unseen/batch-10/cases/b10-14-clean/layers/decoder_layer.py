from keras.layers import MultiHeadAttention as KerasMultiHeadAttention
from tensorflow import keras


class DecoderLayer(keras.layers.Layer):
    def __init__(self, d_model, num_heads, d_ff, dropout_rate=0.1, **kwargs):
        super().__init__(**kwargs)
        self.self_attention = KerasMultiHeadAttention(num_heads, d_model)
        self.cross_attention = KerasMultiHeadAttention(num_heads, d_model)
        self.norm1 = keras.layers.LayerNormalization()
        self.norm2 = keras.layers.LayerNormalization()
        self.norm3 = keras.layers.LayerNormalization()
        self.ff = keras.Sequential([keras.layers.Dense(d_ff, activation="relu"), keras.layers.Dense(d_model)])
        self.dropout = keras.layers.Dropout(dropout_rate)

    def call(self, inputs, encoder_outputs, look_ahead_mask=None, padding_mask=None, training=True):
        attention = self.self_attention(inputs, inputs, inputs, attention_mask=look_ahead_mask)
        x = self.norm1(inputs + self.dropout(attention, training=training))
        attention_2 = self.cross_attention(x, encoder_outputs, encoder_outputs, attention_mask=padding_mask)
        x = self.norm2(x + self.dropout(attention_2, training=training))
        return self.norm3(x + self.ff(x))
