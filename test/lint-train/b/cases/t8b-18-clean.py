# case: t8b-18-clean
# modelled-on: ThomasGust/PyMuse https://github.com/ThomasGust/PyMuse/commit/a24119114afdf0254d60b0cdd0e4c9d86a31b8fa
# label: correct
# class: clean
# pattern: a TensorFlow music-generation project's attention layers in one module: a Bahdanau layer built on tf.keras.layers.AdditiveAttention fed a boolean keep mask for the values and an all-True query mask, the tutorial's scaled dot-product attention adding mask * -1e9 (1 = hide) to the logits, and a multi-head layer that splits heads with reshape + transpose
# why: correct: Keras AdditiveAttention takes mask=[query_mask, value_mask] with True = attend, and the value mask passed is the padding keep mask (True at real tokens); the hand-written function expects the opposite convention (1 = hide) and adds it times -1e9, as its callers build it; depth = d_model // num_heads is the per-head width after split_heads; transpose_b=True transposes the keys
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/ThomasGust/PyMuse https://github.com/ThomasGust/PyMuse/commit/a24119114afdf0254d60b0cdd0e4c9d86a31b8fa Layers/attentions.py
import tensorflow as tf


class BahdanauAttention(tf.keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.W1 = tf.keras.layers.Dense(units, use_bias=False)
        self.W2 = tf.keras.layers.Dense(units, use_bias=False)
        self.attention = tf.keras.layers.AdditiveAttention()

    def call(self, query, value, mask):
        # query: (batch, t, query_units); value: (batch, s, value_units); mask: (batch, s) bool, True = real token
        w1_query = self.W1(query)
        w2_key = self.W2(value)
        query_mask = tf.ones(tf.shape(query)[:-1], dtype=bool)
        value_mask = mask
        context_vector, attention_weights = self.attention(
            inputs=[w1_query, value, w2_key],
            mask=[query_mask, value_mask],
            return_attention_scores=True,
        )
        return context_vector, attention_weights  # (batch, t, value_units), (batch, t, s)


def scaled_dot_product_attention(q, k, v, mask):
    # mask: 1.0 where a key must be hidden (padding or look-ahead)
    matmul_qk = tf.matmul(q, k, transpose_b=True)
    dk = tf.cast(tf.shape(k)[-1], tf.float32)
    scaled_attention_logits = matmul_qk / tf.math.sqrt(dk)
    if mask is not None:
        scaled_attention_logits += mask * -1e9
    attention_weights = tf.nn.softmax(scaled_attention_logits, axis=-1)
    return tf.matmul(attention_weights, v), attention_weights


class MultiHeadAttention(tf.keras.layers.Layer):
    def __init__(self, *, d_model, num_heads):
        super(MultiHeadAttention, self).__init__()
        assert d_model % num_heads == 0
        self.num_heads, self.d_model = num_heads, d_model
        self.depth = d_model // num_heads
        self.wq = tf.keras.layers.Dense(d_model)
        self.wk = tf.keras.layers.Dense(d_model)
        self.wv = tf.keras.layers.Dense(d_model)
        self.dense = tf.keras.layers.Dense(d_model)

    def split_heads(self, x, batch_size):
        x = tf.reshape(x, (batch_size, -1, self.num_heads, self.depth))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def call(self, v, k, q, mask):
        batch_size = tf.shape(q)[0]
        q = self.split_heads(self.wq(q), batch_size)
        k = self.split_heads(self.wk(k), batch_size)
        v = self.split_heads(self.wv(v), batch_size)
        scaled_attention, attention_weights = scaled_dot_product_attention(q, k, v, mask)
        scaled_attention = tf.transpose(scaled_attention, perm=[0, 2, 1, 3])
        concat_attention = tf.reshape(scaled_attention, (batch_size, -1, self.d_model))
        return self.dense(concat_attention), attention_weights
