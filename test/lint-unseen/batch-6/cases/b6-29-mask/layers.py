# case: b6-29-mask
# modelled-on: krishnashashanth-sks/transformers-from-scratch https://github.com/krishnashashanth-sks/transformers-from-scratch/commit/eedb4960dba53856c5594462f493d9877d6aa89b
# label: buggy
# class: real-bug
# pattern: a TensorFlow Informer for time-series forecasting: the decoder layer uses tf.keras.layers.MultiHeadAttention for masked self-attention and cross-attention; the model in another module builds the decoder's look-ahead mask with a utils helper, 1 - band_part(ones, -1, 0) (documented there as True at the future positions, to be masked), and passes it as attention_mask
# why: buggy: Keras MultiHeadAttention's attention_mask marks the positions that may be attended (1 / True = attend, 0 = masked), so a mask that is 1 above the diagonal lets every decoder position attend only to future positions and hides its past and itself (the last position attends to nothing); the mask must be band_part(ones, -1, 0) itself. No fix was found; the label rests on the Keras documentation and the helper's own docstring
# source: https://github.com/krishnashashanth-sks/transformers-from-scratch https://github.com/krishnashashanth-sks/transformers-from-scratch/commit/eedb4960dba53856c5594462f493d9877d6aa89b in-former/layers.py
import tensorflow as tf


class DecoderLayer(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads, d_ff, dropout_rate=0.1, **kwargs):
        super().__init__(**kwargs)
        self.masked_self_attention = tf.keras.layers.MultiHeadAttention(num_heads=num_heads, key_dim=d_model // num_heads, dropout=dropout_rate)
        self.dropout1 = tf.keras.layers.Dropout(dropout_rate)
        self.norm1 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.cross_attention = tf.keras.layers.MultiHeadAttention(num_heads=num_heads, key_dim=d_model // num_heads, dropout=dropout_rate)
        self.dropout2 = tf.keras.layers.Dropout(dropout_rate)
        self.norm2 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.ffn = tf.keras.Sequential([tf.keras.layers.Dense(d_ff, activation="relu"), tf.keras.layers.Dense(d_model)])
        self.dropout3 = tf.keras.layers.Dropout(dropout_rate)
        self.norm3 = tf.keras.layers.LayerNormalization(epsilon=1e-6)

    def call(self, inputs, enc_output, look_ahead_mask, padding_mask, training=False):
        attn1_output = self.masked_self_attention(
            query=inputs,
            value=inputs,
            key=inputs,
            attention_mask=look_ahead_mask,  # expect: ATT002
            training=training,
        )
        out1 = self.norm1(inputs + self.dropout1(attn1_output, training=training))
        attn2_output = self.cross_attention(query=out1, value=enc_output, key=enc_output, attention_mask=padding_mask, training=training)
        out2 = self.norm2(out1 + self.dropout2(attn2_output, training=training))
        return self.norm3(out2 + self.dropout3(self.ffn(out2), training=training))


class Decoder(tf.keras.layers.Layer):
    def __init__(self, num_layers, d_model, num_heads, d_ff, dropout_rate=0.1, **kwargs):
        super().__init__(**kwargs)
        self.dec_layers = [DecoderLayer(d_model, num_heads, d_ff, dropout_rate) for _ in range(num_layers)]
        self.value_embedding = tf.keras.layers.Dense(d_model)

    def call(self, dec_input, enc_output, look_ahead_mask, padding_mask, training=False):
        x = self.value_embedding(dec_input)
        for layer in self.dec_layers:
            x = layer(x, enc_output, look_ahead_mask, padding_mask, training=training)
        return x
