# case: t15h-01-mask
# modelled-on: LongxingTan/Time-series-prediction https://github.com/LongxingTan/Time-series-prediction/commit/1e3651a8d467249c5bc01082bec180d63498a5a7
# label: buggy
# class: real-bug
# pattern: a TF2 time-series forecasting library; a commit titled as fixing the decoder's causal mask builds it in a mask module as band_part(ones, 0, -1) - band_part(ones, 0, 0), i.e. 1 strictly above the diagonal (the future), sized for heads stacked on the batch axis, and hands it from the model's call to the decoder's self-attention; the attention layer splits heads with tf.split/concat on the batch axis, scales by the square root of the per-head width and applies any mask as score = score * mask before tf.nn.softmax
# why: buggy: a 0/1 mask multiplied into the logits does not exclude anything (a zeroed logit still gets exp(0) of the softmax mass), and this mask is 1 on the future and 0 on the past, so the multiplication keeps the future's logits and flattens the past's to 0: the decoder still sees every later step, the opposite of what the commit meant (its title and the mask's docstring: used for the decoder to hide later steps); a keep mask with a -inf/-1e9 fill (or tf.where on this mask == 1) was needed; the library still multiplies in its latest version
# source: https://github.com/LongxingTan/Time-series-prediction https://github.com/LongxingTan/Time-series-prediction/commit/1e3651a8d467249c5bc01082bec180d63498a5a7 tfts/layers/attention_layer.py
import tensorflow as tf
from tensorflow.keras.layers import Dense, Dropout


class HeadsAttention(tf.keras.layers.Layer):
    def __init__(self, hidden_size, num_heads, dropout=0.0, **kwargs):
        super().__init__(**kwargs)
        if hidden_size % num_heads != 0:
            raise ValueError("hidden_size must be divisible by num_heads")
        self.hidden_size = hidden_size
        self.num_heads = num_heads
        self.rate = dropout

    def build(self, input_shape):
        self.wq = Dense(self.hidden_size, use_bias=False)
        self.wk = Dense(self.hidden_size, use_bias=False)
        self.wv = Dense(self.hidden_size, use_bias=False)
        self.drop = Dropout(rate=self.rate)
        super().build(input_shape)

    def call(self, q, k, v, mask=None):
        """q: batch * seq_q * feat, k and v: batch * seq_k * feat; mask: (batch * heads) * seq_q * seq_k."""
        q = self.wq(q)
        k = self.wk(k)
        v = self.wv(v)

        # heads moved to the batch axis
        qh = tf.concat(tf.split(q, self.num_heads, axis=2), axis=0)
        kh = tf.concat(tf.split(k, self.num_heads, axis=2), axis=0)
        vh = tf.concat(tf.split(v, self.num_heads, axis=2), axis=0)

        score = tf.linalg.matmul(qh, kh, transpose_b=True)  # (batch * heads) * seq_q * seq_k
        score /= tf.cast(tf.shape(qh)[-1], tf.float32) ** 0.5

        if mask is not None:
            score = score * tf.cast(mask, tf.float32)  # expect: ATT002, ATT006

        score = tf.nn.softmax(score)
        score = self.drop(score)

        out = tf.linalg.matmul(score, vh)
        return tf.concat(tf.split(out, self.num_heads, axis=0), axis=2)


class SelfHeadsAttention(tf.keras.layers.Layer):
    def __init__(self, hidden_size, num_heads, dropout=0.0):
        super().__init__()
        self.inner = HeadsAttention(hidden_size, num_heads, dropout=dropout)

    def call(self, x, mask=None):
        return self.inner(x, x, x, mask)
