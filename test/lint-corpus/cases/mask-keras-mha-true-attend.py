# case: mask-keras-mha-true-attend
# modelled-on: keras-team/keras-nlp https://github.com/keras-team/keras-nlp/blob/master/keras_nlp/layers/modeling/transformer_encoder.py
# label: correct
# pattern: a Keras transformer encoder: padding mask from tokens != 0 (True = real token) merged with an optional attention mask and passed to keras.layers.MultiHeadAttention(attention_mask=...)
# why: Keras MultiHeadAttention's attention_mask means True/1 = may attend, so a "keep" mask is the right polarity here (the opposite of torch.nn.MultiheadAttention)
# looks-like: ATT002
import tensorflow as tf
from tensorflow import keras


def merge_padding_and_attention_mask(inputs, padding_mask, attention_mask):
    """Returns a (batch, q_len, kv_len) bool mask, True where attention is allowed."""
    mask = padding_mask
    if mask is not None:
        mask = tf.cast(tf.expand_dims(mask, axis=1), "int32")  # (B, 1, S)
    if attention_mask is not None:
        attention_mask = tf.cast(attention_mask, "int32")
        mask = attention_mask if mask is None else tf.minimum(mask, attention_mask)
    return None if mask is None else tf.cast(mask, "bool")


class TransformerEncoder(keras.layers.Layer):
    def __init__(self, intermediate_dim: int, num_heads: int, dropout: float = 0.0, **kwargs):
        super().__init__(**kwargs)
        self.intermediate_dim = intermediate_dim
        self.num_heads = num_heads
        self.dropout = dropout

    def build(self, inputs_shape):
        hidden_dim = inputs_shape[-1]
        key_dim = hidden_dim // self.num_heads
        self._self_attention_layer = keras.layers.MultiHeadAttention(num_heads=self.num_heads, key_dim=key_dim, dropout=self.dropout)
        self._self_attention_layernorm = keras.layers.LayerNormalization(epsilon=1e-5)
        self._ff_intermediate = keras.layers.Dense(self.intermediate_dim, activation="relu")
        self._ff_output = keras.layers.Dense(hidden_dim)
        self._ff_layernorm = keras.layers.LayerNormalization(epsilon=1e-5)
        super().build(inputs_shape)

    def call(self, inputs, padding_mask=None, attention_mask=None):
        mask = merge_padding_and_attention_mask(inputs, padding_mask, attention_mask)
        x = self._self_attention_layer(query=inputs, value=inputs, attention_mask=mask)
        x = self._self_attention_layernorm(x + inputs)
        y = self._ff_output(self._ff_intermediate(x))
        return self._ff_layernorm(x + y)


def encode(token_ids, encoder: TransformerEncoder, embedding: keras.layers.Layer):
    padding_mask = tf.not_equal(token_ids, 0)  # True = real token
    return encoder(embedding(token_ids), padding_mask=padding_mask)
