# case: b36-01-clean
# modelled-on: Alan-404/Speech-Transformer--Speech-To-Text--Tensorflow https://github.com/Alan-404/Speech-Transformer--Speech-To-Text--Tensorflow/commit/7b355311cccfd81e775a1f972be5c635926315fe
# label: correct
# class: clean
# pattern: a Speech-Transformer (speech to text) in TensorFlow / Keras: model/utils/mask.py builds a float padding mask (tokens == 0 -> 1.0, shape (batch, 1, 1, len)) and a look-ahead mask 1 - band_part(ones, -1, 0), combined with tf.maximum; scaled_dot_product_attention (model/components/attention.py) divides q @ k^T (transpose_b) by sqrt(k.shape[-1]), adds mask * -1e20 and softmaxes over the last axis; the 2D attention of the encoder runs the same function twice on 4-D conv maps transposed to (batch, channel, time, freq) and (batch, channel, freq, time), once along time and once along frequency, and transposes both back before concatenating; the decoder layer (model/components/decoder_layer.py) passes the combined look-ahead mask to its masked self-attention
# why: correct: both masks are 1 where a key must be hidden (padding, or a later position), so adding mask * -1e20 removes exactly those (-1e20 is finite in the float32 the model runs in; the diagonal is never hidden for a real token); in the 2D attention each call's last axis is the feature width of that view (frequency bins, then frames), so sqrt(k.shape[-1]) is the right scale and the softmax over the last axis normalises over the keys of that view (frames, then bins); the transposes back restore (batch, time, freq, channel) for both
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT007
# source: https://github.com/Alan-404/Speech-Transformer--Speech-To-Text--Tensorflow https://github.com/Alan-404/Speech-Transformer--Speech-To-Text--Tensorflow/commit/7b355311cccfd81e775a1f972be5c635926315fe model/components/attention.py
import tensorflow as tf
from keras.layers import Conv2D, Dense, Layer


def scaled_dot_product_attention(q: tf.Tensor, k: tf.Tensor, v: tf.Tensor, mask: tf.Tensor = None):
    dk = tf.cast(k.shape[-1], dtype=tf.float32)
    scores = tf.matmul(q, k, transpose_b=True) / tf.sqrt(dk)
    if mask is not None:
        scores += mask * (-1e20)
    weights = tf.nn.softmax(scores, axis=-1)
    return tf.matmul(weights, v), weights


class MultiHeadAttention(Layer):
    def __init__(self, heads: int = 8, embedding_dim: int = 512):
        super().__init__()
        self.heads = heads
        self.embedding_dim = embedding_dim
        self.head_width = embedding_dim // heads
        self.linear_q = Dense(units=embedding_dim)
        self.linear_k = Dense(units=embedding_dim)
        self.linear_v = Dense(units=embedding_dim)
        self.linear_output = Dense(units=embedding_dim)

    def split(self, tensor: tf.Tensor):
        batch_size, length = tensor.shape[0], tensor.shape[1]
        tensor = tf.reshape(tensor, (batch_size, length, self.heads, self.head_width))
        return tf.transpose(tensor, [0, 2, 1, 3])

    def call(self, q: tf.Tensor, k: tf.Tensor, v: tf.Tensor, mask: tf.Tensor = None):
        batch_size, length = q.shape[0], q.shape[1]
        heads_out, weights = scaled_dot_product_attention(
            self.split(self.linear_q(q)), self.split(self.linear_k(k)), self.split(self.linear_v(v)), mask
        )
        merged = tf.reshape(tf.transpose(heads_out, [0, 2, 1, 3]), (batch_size, length, self.embedding_dim))
        return self.linear_output(merged), weights


class TwoDimAttention(Layer):
    """2D attention of the Speech-Transformer: one attention along time, one along frequency."""

    def __init__(self, n: int, c: int, kernel_size=3, strides=1, padding: str = "same"):
        super().__init__()
        self.conv_q = Conv2D(filters=c, kernel_size=kernel_size, strides=strides, padding=padding)
        self.conv_k = Conv2D(filters=c, kernel_size=kernel_size, strides=strides, padding=padding)
        self.conv_v = Conv2D(filters=c, kernel_size=kernel_size, strides=strides, padding=padding)
        self.conv_output = Conv2D(filters=n, kernel_size=kernel_size, strides=strides, padding=padding)

    def call(self, q: tf.Tensor, k: tf.Tensor, v: tf.Tensor):
        cq, ck, cv = self.conv_q(q), self.conv_k(k), self.conv_v(v)  # (batch, time, frequency, channel)

        # (batch, channel, time, frequency): rows are frames, features are frequency bins
        by_time = [tf.transpose(t, [0, 3, 1, 2]) for t in (cq, ck, cv)]
        # (batch, channel, frequency, time): rows are frequency bins, features are frames
        by_freq = [tf.transpose(t, [0, 3, 2, 1]) for t in (cq, ck, cv)]

        out_time, _ = scaled_dot_product_attention(*by_time)
        out_freq, _ = scaled_dot_product_attention(*by_freq)

        out_time = tf.transpose(out_time, [0, 2, 3, 1])
        out_freq = tf.transpose(out_freq, [0, 3, 2, 1])
        return self.conv_output(tf.concat([out_freq, out_time], axis=-1))
