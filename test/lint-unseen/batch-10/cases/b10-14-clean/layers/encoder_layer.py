from keras.layers import MultiHeadAttention as KerasMultiHeadAttention
from tensorflow import keras


class EncoderLayer(keras.layers.Layer):
    def __init__(self, d_model, num_heads, d_ff, dropout_rate=0.1, **kwargs):
        super().__init__(**kwargs)
        self.attention = KerasMultiHeadAttention(num_heads, d_model)
        self.norm1 = keras.layers.LayerNormalization()
        self.ff = keras.Sequential([keras.layers.Dense(d_ff, activation="relu"), keras.layers.Dense(d_model)])
        self.norm2 = keras.layers.LayerNormalization()
        self.dropout = keras.layers.Dropout(dropout_rate)

    def call(self, inputs, padding_mask=None, training=True):
        attention = self.attention(inputs, inputs, inputs, attention_mask=padding_mask)
        x = self.norm1(inputs + self.dropout(attention, training=training))
        return self.norm2(x + self.ff(x))
