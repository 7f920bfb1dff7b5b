import tensorflow as tf


def scaled_dot_product_attention(q, k, v, mask):
    logits = tf.matmul(q, k, transpose_b=True)  # (..., len_q, len_k)
    depth = tf.cast(tf.shape(k)[-1], tf.float32)
    logits = logits / tf.math.sqrt(depth)
    if mask is not None:
        logits += mask * -1e9
    weights = tf.nn.softmax(logits, axis=-1)
    return tf.matmul(weights, v), weights


class MultiHeadAttention(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads):
        super().__init__()
        assert d_model % num_heads == 0
        self.num_heads = num_heads
        self.d_model = d_model
        self.depth = d_model // num_heads
        self.wq = tf.keras.layers.Dense(d_model, use_bias=False)
        self.wk = tf.keras.layers.Dense(d_model)
        self.wv = tf.keras.layers.Dense(d_model)
        self.out = tf.keras.layers.Dense(d_model)

    def split_heads(self, x, batch_size):
        x = tf.reshape(x, (batch_size, -1, self.num_heads, self.depth))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def call(self, v, k, q, mask=None):
        b = tf.shape(q)[0]
        q = self.split_heads(self.wq(q), b)
        k = self.split_heads(self.wk(k), b)
        v = self.split_heads(self.wv(v), b)
        ctx, weights = scaled_dot_product_attention(q, k, v, mask)
        ctx = tf.reshape(tf.transpose(ctx, perm=[0, 2, 1, 3]), (b, -1, self.d_model))
        return self.out(ctx), weights


class EncoderLayer(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads, dff, rate=0.1):
        super().__init__()
        self.mha = MultiHeadAttention(d_model, num_heads)
        self.ffn = tf.keras.Sequential([tf.keras.layers.Dense(dff, activation="relu"), tf.keras.layers.Dense(d_model)])
        self.ln1 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.ln2 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.drop1 = tf.keras.layers.Dropout(rate)
        self.drop2 = tf.keras.layers.Dropout(rate)

    def call(self, x, training=False, mask=None):
        a, _ = self.mha(x, x, x, mask)
        x = self.ln1(x + self.drop1(a, training=training))
        return self.ln2(x + self.drop2(self.ffn(x), training=training))
