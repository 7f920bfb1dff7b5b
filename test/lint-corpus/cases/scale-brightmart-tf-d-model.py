# case: scale-brightmart-tf-d-model
# modelled-on: brightmart/bert_language_understanding https://github.com/brightmart/bert_language_understanding/issues/9
# label: buggy
# pattern: TF1 multi-head attention reshapes to (batch, h, seq, d_k) but scales the per-head dot products by 1/sqrt(d_model)
# why: d_model = h * d_k, so the logits are shrunk by an extra 1/sqrt(h) compared with the paper's 1/sqrt(d_k)
import tensorflow as tf


class MultiHeadAttention:
    def __init__(self, Q, K_s, V_s, d_model, d_k, d_v, sequence_length, h, mask=None):
        self.d_model = d_model
        self.d_k = d_k
        self.d_v = d_v
        self.sequence_length = sequence_length
        self.h = h
        self.Q, self.K_s, self.V_s = Q, K_s, V_s
        self.mask = mask  # (batch, seq, seq) float, 1.0 where attention is not allowed

    def split_heads(self, x, depth):
        x = tf.reshape(x, [-1, self.sequence_length, self.h, depth])
        return tf.transpose(x, [0, 2, 1, 3])  # (batch, h, seq, depth)

    def multi_head_attention_fn(self):
        Q_projected = tf.compat.v1.layers.dense(self.Q, units=self.d_model)
        K_projected = tf.compat.v1.layers.dense(self.K_s, units=self.d_model)
        V_projected = tf.compat.v1.layers.dense(self.V_s, units=self.d_model)
        q = self.split_heads(Q_projected, self.d_k)
        k = self.split_heads(K_projected, self.d_k)
        v = self.split_heads(V_projected, self.d_v)
        out = self.scaled_dot_product_attention_batch(q, k, v)  # (batch, h, seq, d_v)
        out = tf.reshape(tf.transpose(out, [0, 2, 1, 3]), [-1, self.sequence_length, self.h * self.d_v])
        return tf.compat.v1.layers.dense(out, units=self.d_model)

    def scaled_dot_product_attention_batch(self, q, k, v):
        dot_product = tf.matmul(q, k, transpose_b=True)  # (batch, h, seq, seq)
        dot_product = dot_product * (1.0 / tf.sqrt(tf.cast(self.d_model, tf.float32)))  # expect: ATT004
        if self.mask is not None:
            dot_product = dot_product + tf.expand_dims(self.mask, 1) * -1e9
        weights = tf.nn.softmax(dot_product, axis=-1)
        return tf.matmul(weights, v)
