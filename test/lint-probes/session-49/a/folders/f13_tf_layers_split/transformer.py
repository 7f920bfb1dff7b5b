import tensorflow as tf

from attention_layer import attention


class SelfAttentionBlock(tf.keras.layers.Layer):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads = heads
        self.depth = hidden // heads
        self.qkv = tf.keras.layers.Dense(3 * hidden, use_bias=False)
        self.out = tf.keras.layers.Dense(hidden)

    def call(self, x, padding_mask=None):
        b = tf.shape(x)[0]
        qkv = tf.reshape(self.qkv(x), (b, -1, 3, self.heads, self.depth))
        qkv = tf.transpose(qkv, perm=[2, 0, 3, 1, 4])
        q, k, v = qkv[0], qkv[1], qkv[2]
        mask = None if padding_mask is None else padding_mask[:, tf.newaxis, tf.newaxis, :]
        y = attention(q, k, v, mask)
        y = tf.reshape(tf.transpose(y, perm=[0, 2, 1, 3]), (b, -1, self.heads * self.depth))
        return self.out(y)
