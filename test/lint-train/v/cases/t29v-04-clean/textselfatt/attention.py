# case: t29v-04-clean
# modelled-on: WarFW/Natural-Language-Processing-Models https://github.com/WarFW/Natural-Language-Processing-Models/commit/083c9041c643ebfac2fc2dc86921e3def2e50e07
# label: correct
# class: clean
# pattern: a TensorFlow 2 text-classification zoo (TextSelfAtt: embedding -> multi-head self-attention -> BiGRU -> dense): a module-level scaled_dot_product_attention takes tf.matmul(q, k, transpose_b=True), divides by tf.math.sqrt(dk) with dk = tf.cast(tf.shape(k)[-1]), adds mask * -1e9 and normalises with tf.nn.softmax(axis=-1); the Keras MultiHeadAttention layer's call takes its arguments in the order (v, k, q), splits d_model into num_heads heads of width depth = d_model // num_heads with a reshape and a (0, 2, 1, 3) transpose before calling it; the model builds the layer with d_model = embedding_dims (400) and 4 heads and calls it as attention(x, x, x)
# why: correct: the keys reach scaled_dot_product_attention already split into heads, (batch, heads, seq, depth), so tf.shape(k)[-1] is depth (100), one head's width, not the embedding width; transpose_b=True transposes the keys' last two axes inside the matmul, so the logits are (batch, heads, seq_q, seq_k) and axis=-1 is the key axis; the (v, k, q) order is the layer's own signature and the model passes the same tensor three times
# looks-like: ATT004, ATT005, ATT001
# source: https://github.com/WarFW/Natural-Language-Processing-Models https://github.com/WarFW/Natural-Language-Processing-Models/commit/083c9041c643ebfac2fc2dc86921e3def2e50e07 TextClassification/imp_by_tensorflow2/TextSelfAtt/attention.py, text_selfatt.py
import tensorflow as tf


def scaled_dot_product_attention(q, k, v, mask=None):
    """q: (..., seq_len_q, d), k: (..., seq_len, d), v: (..., seq_len, d_v);
    mask broadcastable to (..., seq_len_q, seq_len), 1 where a position is hidden."""
    # (..., seq_len_q, d) x (..., d, seq_len) -> (..., seq_len_q, seq_len)
    matmul_qk = tf.matmul(q, k, transpose_b=True)

    dk = tf.cast(tf.shape(k)[-1], dtype=tf.float32)
    scaled_attention_logits = matmul_qk / tf.math.sqrt(dk)

    if mask is not None:
        scaled_attention_logits += (mask * -1e9)

    attention_weights = tf.nn.softmax(scaled_attention_logits, axis=-1)
    output = tf.matmul(attention_weights, v)  # (..., seq_len_q, d_v)
    return output, attention_weights


class MultiHeadAttention(tf.keras.layers.Layer):

    def __init__(self, d_model, num_heads):
        super(MultiHeadAttention, self).__init__()
        assert d_model > num_heads and d_model % num_heads == 0, (d_model, num_heads)
        self.d_model = d_model
        self.num_heads = num_heads
        self.depth = d_model // num_heads

        self.qw = tf.keras.layers.Dense(d_model)
        self.kw = tf.keras.layers.Dense(d_model)
        self.vw = tf.keras.layers.Dense(d_model)
        self.dense = tf.keras.layers.Dense(d_model)

    def split_heads(self, x, batch_size):
        x = tf.reshape(x, (batch_size, -1, self.num_heads, self.depth))
        return tf.transpose(x, perm=(0, 2, 1, 3))

    def call(self, v, k, q, mask=None):
        batch_size = tf.shape(q)[0]

        q = self.qw(q)  # (batch, seq_len_q, d_model)
        k = self.kw(k)
        v = self.vw(v)

        q = self.split_heads(q, batch_size)  # (batch, heads, seq_len_q, depth)
        k = self.split_heads(k, batch_size)
        v = self.split_heads(v, batch_size)

        scaled_attention, attention_weights = scaled_dot_product_attention(q, k, v, mask)

        scaled_attention = tf.transpose(scaled_attention, perm=(0, 2, 1, 3))
        concat_attention = tf.reshape(scaled_attention, (batch_size, -1, self.d_model))
        return self.dense(concat_attention)
