import tensorflow as tf


class Head(tf.keras.layers.Layer):
    def __init__(self, head_dim, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.head_dim = head_dim
        self.wq = tf.keras.layers.Dense(head_dim)
        self.wk = tf.keras.layers.Dense(head_dim)
        self.wv = tf.keras.layers.Dense(head_dim)

    def call(self, query, key, value, mask=None):
        q = self.wq(query)  # (batch, seq, head_dim)
        k = self.wk(key)
        v = self.wv(value)
        scores = tf.matmul(q, tf.transpose(k, perm=[0, 2, 1])) / tf.math.sqrt(tf.cast(tf.shape(q)[-1], tf.float32))
        if mask is not None:
            keep = tf.cast(mask, dtype=tf.bool)
            scores = tf.where(keep, scores, tf.constant(-1e9, dtype=scores.dtype))
        weights = tf.nn.softmax(scores, axis=-1)
        return tf.matmul(weights, v)


class MultiHead(tf.keras.layers.Layer):
    def __init__(self, hidden_size, num_heads, **kwargs):
        super().__init__(**kwargs)
        self.heads = [Head(hidden_size // num_heads) for _ in range(num_heads)]
        self.out = tf.keras.layers.Dense(hidden_size)

    def call(self, query, key, value, mask=None):
        return self.out(tf.concat([h(query, key, value, mask=mask) for h in self.heads], axis=-1))
