# case: b3-33-clean
# modelled-on: DongjunLee/transformer-tensorflow https://github.com/DongjunLee/transformer-tensorflow/commit/b6585fa7504f0f35327f2a3994dac7b06b6036f7
# label: correct
# class: clean
# pattern: TensorFlow 1 multi-head attention class: heads split by reshape + transpose [0, 2, 1, 3] to (batch, heads, len, dim/heads), scores from tf.matmul(qs, ks, transpose_b=True) divided by sqrt(key_dim_per_head), an optional look-ahead mask from LinearOperatorLowerTriangular tiled over batch and heads and applied with tf.where(mask == 0, -1e9, scores), and tf.nn.softmax with the default axis
# why: transpose_b=True transposes the last two axes of the 4-D keys; the scale is the per-head key width; the lower-triangular mask is a keep mask filled where 0; -1e9 is safe in float32 and the diagonal is always kept; the default axis of 4-D scores is the key axis
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT007
# source: https://github.com/DongjunLee/transformer-tensorflow https://github.com/DongjunLee/transformer-tensorflow/commit/b6585fa7504f0f35327f2a3994dac7b06b6036f7 transformer/attention.py
import tensorflow as tf


class Attention:
    """Multi-head attention, optionally masked (decoder self-attention)."""

    def __init__(self, num_heads=1, masked=False, linear_key_dim=50, linear_value_dim=50, model_dim=100, dropout=0.2):
        assert linear_key_dim % num_heads == 0
        assert linear_value_dim % num_heads == 0
        self.num_heads = num_heads
        self.masked = masked
        self.linear_key_dim = linear_key_dim
        self.linear_value_dim = linear_value_dim
        self.model_dim = model_dim
        self.dropout = dropout

    def multi_head(self, q, k, v):
        q = tf.layers.dense(q, self.linear_key_dim, use_bias=False)
        k = tf.layers.dense(k, self.linear_key_dim, use_bias=False)
        v = tf.layers.dense(v, self.linear_value_dim, use_bias=False)
        qs = self._split(q, self.linear_key_dim)
        ks = self._split(k, self.linear_key_dim)
        vs = self._split(v, self.linear_value_dim)
        outputs = self._scaled_dot_product(qs, ks, vs)
        output = self._concat_heads(outputs)
        output = tf.layers.dense(output, self.model_dim)
        return tf.nn.dropout(output, 1.0 - self.dropout)

    def _split(self, tensor, dim):
        t_shape = tensor.get_shape().as_list()
        tensor = tf.reshape(tensor, [-1] + t_shape[1:-1] + [self.num_heads, dim // self.num_heads])
        return tf.transpose(tensor, [0, 2, 1, 3])  # [batch_size, num_heads, max_seq_len, dim]

    def _scaled_dot_product(self, qs, ks, vs):
        key_dim_per_head = self.linear_key_dim // self.num_heads
        o1 = tf.matmul(qs, ks, transpose_b=True)
        o2 = o1 / (key_dim_per_head**0.5)
        if self.masked:
            diag_vals = tf.ones_like(o2[0, 0, :, :])  # (query_dim, key_dim)
            tril = tf.linalg.LinearOperatorLowerTriangular(diag_vals).to_dense()
            masks = tf.tile(tf.reshape(tril, [1, 1] + tril.get_shape().as_list()), [tf.shape(o2)[0], tf.shape(o2)[1], 1, 1])
            paddings = tf.ones_like(masks) * -1e9
            o2 = tf.where(tf.equal(masks, 0), paddings, o2)
        o3 = tf.nn.softmax(o2)
        return tf.matmul(o3, vs)

    def _concat_heads(self, outputs):
        tensor = tf.transpose(outputs, [0, 2, 1, 3])  # [batch_size, max_seq_len, num_heads, dim]
        t_shape = tensor.get_shape().as_list()
        num_heads, dim = t_shape[-2:]
        return tf.reshape(tensor, [-1] + t_shape[1:-2] + [num_heads * dim])
