# case: b4-35-clean
# modelled-on: AliHaiderAhmad001/GPT-from-Scratch-with-Tensorflow https://github.com/AliHaiderAhmad001/GPT-from-Scratch-with-Tensorflow/commit/0fae1622856ae49389b8768a6ae95b5a095f1a80
# label: correct
# class: clean
# pattern: a Keras GPT decoder block: the causal mask is built from two ranges as `i >= j` cast to int32 and tiled over the batch; attention.py's heads (3-D tensors, keys transposed with perm [0, 2, 1]) divide the scores by sqrt(head_dim), cast the mask to bool and keep the scores where it is True with tf.where(mask, scores, -1e9), then take a softmax over the last axis
# why: correct: `i >= j` is 1 on and below the diagonal, a keep mask, and tf.where keeps the scores exactly there; perm [0, 2, 1] is the key transpose of 3-D (batch, seq, dim) keys; the model runs in float32
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/AliHaiderAhmad001/GPT-from-Scratch-with-Tensorflow https://github.com/AliHaiderAhmad001/GPT-from-Scratch-with-Tensorflow/commit/0fae1622856ae49389b8768a6ae95b5a095f1a80 decoder.py
import tensorflow as tf

from attention import MultiHead


class DecoderBlock(tf.keras.layers.Layer):
    def __init__(self, hidden_size, num_heads, eps=1e-5, drop=0.1, **kwargs):
        super().__init__(**kwargs)
        self.attn = MultiHead(hidden_size, num_heads)
        self.norm1 = tf.keras.layers.LayerNormalization(epsilon=eps)
        self.norm2 = tf.keras.layers.LayerNormalization(epsilon=eps)
        self.ff = tf.keras.Sequential([tf.keras.layers.Dense(4 * hidden_size, activation="gelu"), tf.keras.layers.Dense(hidden_size)])
        self.dropout = tf.keras.layers.Dropout(drop)

    def causal_mask(self, x):
        shape = tf.shape(x)
        batch, n = shape[0], shape[1]
        i = tf.range(n)[:, tf.newaxis]
        j = tf.range(n)
        mask = tf.reshape(tf.cast(i >= j, dtype=tf.int32), (1, n, n))
        mult = tf.concat([tf.expand_dims(batch, -1), tf.constant([1, 1], dtype=tf.int32)], axis=0)
        return tf.tile(mask, mult)

    def call(self, h, training=False):
        a = self.attn(h, h, h, mask=self.causal_mask(h))
        h = self.norm1(h + self.dropout(a, training=training))
        f = self.ff(h)
        return self.norm2(h + self.dropout(f, training=training))
