# case: t15h-03-scale
# modelled-on: ays-dev/keras-transformer https://github.com/ays-dev/keras-transformer/commit/541221f8c9faf708fb28c14976da1d17a6397380
# label: buggy
# class: real-bug
# pattern: a Keras encoder-decoder for translation; the MultiHeadAttention layer checks that the embedding size divides by the number of heads, reshapes Q, K and V to (batch * heads, seq, head_dim), divides Q @ K^T by tf.math.sqrt(float(self.embedding_size)), optionally hides the future with a LinearOperatorLowerTriangular mask and tf.where(equal(mask, 0), -inf), softmaxes the last axis and merges the heads back
# why: buggy: each head's keys are head_dim = embedding_size / nb_head wide (the layer computes head_dim itself), but the logits are divided by sqrt(embedding_size), sqrt(nb_head) times too much (the README trains with 4 and 8 heads), flattening every head's softmax; the paper scales by 1/sqrt(d_k), the per-head width; no fix exists, the label rests on the paper and the layer's own shapes
# source: https://github.com/ays-dev/keras-transformer https://github.com/ays-dev/keras-transformer/commit/541221f8c9faf708fb28c14976da1d17a6397380 models/multi_head_attention.py
import tensorflow as tf


class HeadsAttention(tf.keras.layers.Layer):
    def __init__(self, embedding_size, nb_head, **kwargs):
        super().__init__(**kwargs)
        if embedding_size % nb_head != 0:
            raise SystemError("embedding_size should be divisible by the number of heads")
        self.embedding_size = embedding_size
        self.nb_head = nb_head
        self.head_dim = embedding_size // nb_head

    def build(self, input_shape):
        super().build(input_shape)
        self.wq = tf.keras.layers.Dense(self.embedding_size)
        self.wk = tf.keras.layers.Dense(self.embedding_size)
        self.wv = tf.keras.layers.Dense(self.embedding_size)
        self.out = tf.keras.layers.Dense(self.embedding_size)

    def _fold(self, t, batch, length):
        t = tf.reshape(t, [batch, length, self.nb_head, self.head_dim])
        t = tf.transpose(t, [0, 2, 1, 3])
        return tf.reshape(t, [batch * self.nb_head, length, self.head_dim])

    def call(self, x, future=False):
        q_in, k_in, v_in = x
        Q = self.wq(q_in)
        K = self.wk(k_in)
        V = self.wv(v_in)

        batch = tf.shape(Q)[0]
        q_len = tf.shape(Q)[1]
        k_len = tf.shape(K)[1]
        if self.nb_head > 1:
            Q = self._fold(Q, batch, q_len)
            K = self._fold(K, batch, k_len)
            V = self._fold(V, batch, k_len)

        logits = tf.matmul(Q, K, transpose_b=True)
        logits = logits / tf.math.sqrt(float(self.embedding_size))  # expect: ATT004

        if future:
            ones = tf.ones_like(logits[0, :, :])
            lower = tf.linalg.LinearOperatorLowerTriangular(ones).to_dense()
            lower = tf.tile(tf.expand_dims(lower, 0), [tf.shape(logits)[0], 1, 1])
            floor = tf.ones_like(lower) * -float("Inf")
            logits = tf.where(tf.equal(lower, 0), floor, logits)

        weights = tf.nn.softmax(logits, axis=-1)
        ctx = tf.matmul(weights, V)

        if self.nb_head > 1:
            ctx = tf.reshape(ctx, [batch, self.nb_head, q_len, self.head_dim])
            ctx = tf.transpose(ctx, [0, 2, 1, 3])
            ctx = tf.reshape(ctx, [batch, q_len, self.nb_head * self.head_dim])
        return self.out(ctx)
