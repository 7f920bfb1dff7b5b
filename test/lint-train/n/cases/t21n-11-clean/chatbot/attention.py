# case: t21n-11-clean
# modelled-on: SinhalaVA-DL/Transformer-Chatbot-Backend https://github.com/SinhalaVA-DL/Transformer-Chatbot-Backend/commit/a635f8ea80282e4a87694e869955d240f87f0016
# label: correct
# class: clean
# pattern: a Keras functional-API chatbot transformer (TensorFlow 2): the padding mask is tf.cast(tf.equal(ids, 0), float) reshaped to (batch, 1, 1, len) and the decoder mask is tf.maximum(1 - band_part(ones, -1, 0), padding mask), both built in another module and wrapped in Lambda layers; scaled_dot_product_attention computes tf.matmul(query, key, transpose_b=True) / sqrt(depth of the keys), adds mask * -1e9 and softmaxes over axis=-1; the multi-head layer splits heads with reshape + transpose inside Lambda layers and takes its inputs as a dict
# why: correct: both masks are 1 where attention must be blocked (padding ids, keys after the query), so adding mask * -1e9 pushes exactly those logits down; 1 - band_part(ones, -1, 0) is the strict upper triangle, and maximum keeps a position blocked if either mask blocks it; transpose_b=True transposes the keys, and depth is the per-head width
# looks-like: ATT002, ATT005, ATT006, ATT007
# source: https://github.com/SinhalaVA-DL/Transformer-Chatbot-Backend https://github.com/SinhalaVA-DL/Transformer-Chatbot-Backend/commit/a635f8ea80282e4a87694e869955d240f87f0016 app/internal/model/Transformer.py
import tensorflow as tf

from chatbot.masks import create_look_ahead_mask, create_padding_mask


def scaled_dot_product_attention(query, key, value, mask):
    matmul_qk = tf.matmul(query, key, transpose_b=True)
    depth = tf.cast(tf.shape(key)[-1], tf.float32)
    logits = matmul_qk / tf.math.sqrt(depth)
    # add the mask to zero out padding tokens
    if mask is not None:
        logits += mask * -1e9
    attention_weights = tf.nn.softmax(logits, axis=-1)
    return tf.matmul(attention_weights, value)


class MultiHeadAttention(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads, name="multi_head_attention"):
        super(MultiHeadAttention, self).__init__(name=name)
        assert d_model % num_heads == 0
        self.num_heads = num_heads
        self.d_model = d_model
        self.depth = d_model // num_heads
        self.query_dense = tf.keras.layers.Dense(units=d_model)
        self.key_dense = tf.keras.layers.Dense(units=d_model)
        self.value_dense = tf.keras.layers.Dense(units=d_model)
        self.dense = tf.keras.layers.Dense(units=d_model)

    def split_heads(self, inputs, batch_size):
        inputs = tf.keras.layers.Lambda(
            lambda t: tf.reshape(t, shape=(batch_size, -1, self.num_heads, self.depth)))(inputs)
        return tf.keras.layers.Lambda(lambda t: tf.transpose(t, perm=[0, 2, 1, 3]))(inputs)

    def call(self, inputs):
        query, key, value, mask = inputs["query"], inputs["key"], inputs["value"], inputs["mask"]
        batch_size = tf.shape(query)[0]
        query = self.split_heads(self.query_dense(query), batch_size)
        key = self.split_heads(self.key_dense(key), batch_size)
        value = self.split_heads(self.value_dense(value), batch_size)
        attended = scaled_dot_product_attention(query, key, value, mask)
        attended = tf.keras.layers.Lambda(lambda t: tf.transpose(t, perm=[0, 2, 1, 3]))(attended)
        concat = tf.keras.layers.Lambda(lambda t: tf.reshape(t, (batch_size, -1, self.d_model)))(attended)
        return self.dense(concat)


def decoder_self_attention(d_model, num_heads):
    ids = tf.keras.Input(shape=(None,), name="dec_ids")
    states = tf.keras.Input(shape=(None, d_model), name="dec_states")
    look_ahead = tf.keras.layers.Lambda(create_look_ahead_mask, output_shape=(1, None, None))(ids)
    out = MultiHeadAttention(d_model, num_heads)({"query": states, "key": states, "value": states, "mask": look_ahead})
    return tf.keras.Model(inputs=[ids, states], outputs=out)


def encoder_self_attention(d_model, num_heads):
    ids = tf.keras.Input(shape=(None,), name="enc_ids")
    states = tf.keras.Input(shape=(None, d_model), name="enc_states")
    padding = tf.keras.layers.Lambda(create_padding_mask, output_shape=(1, 1, None))(ids)
    out = MultiHeadAttention(d_model, num_heads)({"query": states, "key": states, "value": states, "mask": padding})
    return tf.keras.Model(inputs=[ids, states], outputs=out)
