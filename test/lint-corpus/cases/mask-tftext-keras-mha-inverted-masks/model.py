# case: mask-tftext-keras-mha-inverted-masks
# modelled-on: tensorflow/text https://github.com/tensorflow/text/issues/938
# label: correct
# pattern: the Transformer tutorial's own MultiHeadAttention layer replaced by tf.keras.layers.MultiHeadAttention while the tutorial's mask helpers stay in masks.py: create_padding_mask is 1.0 at the padding (tf.math.equal(seq, 0)) and create_look_ahead_mask is 1 - band_part(ones, -1, 0), 1.0 at the future; the masks reach the layers' attention_mask through the model's call and the layers' call parameters
# why: the fix #938 asks for: the tutorial's helpers still mark what to ignore (1.0 at padding and at the future), and the model inverts each mask (1 - mask) before it reaches tf.keras.layers.MultiHeadAttention, whose attention_mask is 1 = attend
# looks-like: ATT002
import tensorflow as tf

from masks import create_masks


def point_wise_feed_forward_network(d_model, dff):
    return tf.keras.Sequential([
        tf.keras.layers.Dense(dff, activation='relu'),  # (batch_size, seq_len, dff)
        tf.keras.layers.Dense(d_model)  # (batch_size, seq_len, d_model)
    ])


class EncoderLayer(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads, dff, rate=0.1):
        super().__init__()
        self.mha = tf.keras.layers.MultiHeadAttention(num_heads=num_heads, key_dim=d_model // num_heads)
        self.ffn = point_wise_feed_forward_network(d_model, dff)
        self.layernorm1 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.layernorm2 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.dropout1 = tf.keras.layers.Dropout(rate)
        self.dropout2 = tf.keras.layers.Dropout(rate)

    def call(self, x, training, mask):
        attn_output = self.mha(x, x, attention_mask=mask, training=training)
        attn_output = self.dropout1(attn_output, training=training)
        out1 = self.layernorm1(x + attn_output)  # (batch_size, input_seq_len, d_model)
        ffn_output = self.ffn(out1)
        ffn_output = self.dropout2(ffn_output, training=training)
        return self.layernorm2(out1 + ffn_output)


class DecoderLayer(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads, dff, rate=0.1):
        super().__init__()
        self.mha1 = tf.keras.layers.MultiHeadAttention(num_heads=num_heads, key_dim=d_model // num_heads)
        self.mha2 = tf.keras.layers.MultiHeadAttention(num_heads=num_heads, key_dim=d_model // num_heads)
        self.ffn = point_wise_feed_forward_network(d_model, dff)
        self.layernorm1 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.layernorm2 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.layernorm3 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.dropout1 = tf.keras.layers.Dropout(rate)
        self.dropout2 = tf.keras.layers.Dropout(rate)
        self.dropout3 = tf.keras.layers.Dropout(rate)

    def call(self, x, enc_output, training, look_ahead_mask, padding_mask):
        attn1 = self.mha1(x, x, attention_mask=look_ahead_mask, training=training)
        attn1 = self.dropout1(attn1, training=training)
        out1 = self.layernorm1(attn1 + x)
        attn2 = self.mha2(out1, enc_output, attention_mask=padding_mask, training=training)
        attn2 = self.dropout2(attn2, training=training)
        out2 = self.layernorm2(attn2 + out1)  # (batch_size, target_seq_len, d_model)
        ffn_output = self.ffn(out2)
        ffn_output = self.dropout3(ffn_output, training=training)
        return self.layernorm3(ffn_output + out2)


class Transformer(tf.keras.Model):
    def __init__(self, num_layers, d_model, num_heads, dff, input_vocab_size, target_vocab_size, rate=0.1):
        super().__init__()
        self.d_model = d_model
        self.enc_embedding = tf.keras.layers.Embedding(input_vocab_size, d_model)
        self.dec_embedding = tf.keras.layers.Embedding(target_vocab_size, d_model)
        self.enc_layers = [EncoderLayer(d_model, num_heads, dff, rate) for _ in range(num_layers)]
        self.dec_layers = [DecoderLayer(d_model, num_heads, dff, rate) for _ in range(num_layers)]
        self.final_layer = tf.keras.layers.Dense(target_vocab_size)

    def call(self, inputs, training):
        inp, tar = inputs
        enc_padding_mask, look_ahead_mask, dec_padding_mask = create_masks(inp, tar)
        # The Keras layer attends where the mask is 1: flip the tutorial's masks.
        enc_padding_mask = 1 - enc_padding_mask
        look_ahead_mask = 1 - look_ahead_mask
        dec_padding_mask = 1 - dec_padding_mask

        x = self.enc_embedding(inp) * tf.math.sqrt(tf.cast(self.d_model, tf.float32))
        for layer in self.enc_layers:
            x = layer(x, training, enc_padding_mask)
        enc_output = x  # (batch_size, inp_seq_len, d_model)

        y = self.dec_embedding(tar) * tf.math.sqrt(tf.cast(self.d_model, tf.float32))
        for layer in self.dec_layers:
            y = layer(y, enc_output, training, look_ahead_mask, dec_padding_mask)

        return self.final_layer(y)  # (batch_size, tar_seq_len, target_vocab_size)
