import tensorflow as tf

from harnet.attention import MultiHeadAttention, feed_forward


class LearnedQueryPooling(tf.keras.layers.Layer):
    """Pools a (batch, windows, d_model) sequence with one learned query."""

    def __init__(self, d_model, num_heads):
        super().__init__()
        self.d_model = d_model
        self.mha = MultiHeadAttention(d_model, num_heads)
        self.query = self.add_weight(
            "pool_query", shape=[1, 1, d_model], initializer=tf.keras.initializers.Orthogonal()
        )

    def call(self, v, k):
        q = tf.tile(self.query, [tf.shape(v)[0], 1, 1])
        out, weights = self.mha(v, k, q, mask=None)
        out = tf.squeeze(out, axis=1)  # (batch, d_model)
        weights = tf.squeeze(weights, axis=2)  # (batch, heads, windows)
        return out, weights


class SessionAttention(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads, dff, rate, concat=True):
        super().__init__()
        self.concat = concat
        self.pool = LearnedQueryPooling(d_model, num_heads)
        self.ffn = feed_forward(d_model, dff)
        self.norm = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.drop1 = tf.keras.layers.Dropout(rate)
        self.drop2 = tf.keras.layers.Dropout(rate)

    def call(self, x, training=False):
        if self.concat:
            x = tf.concat(x, axis=1)
        x, scores = self.pool(x, x)
        x = self.drop1(x, training=training)
        return self.norm(x + self.drop2(self.ffn(x), training=training)), scores
