# case: clean-lilianweng-tf-keep-blend-scale-in-softmax
# modelled-on: lilianweng/transformer-tensorflow https://github.com/lilianweng/transformer-tensorflow/commit/c6d34155c23250d9168d3c7677783da8800216c3
# label: correct
# class: clean
# pattern: TF1 transformer with heads folded into the batch by split/concat; float keep masks (padding from not_equal(pad), autoregressive from np.tril_indices) tiled over the heads and blended into the scores as scores * mask + (1 - mask) * -1e10 before the softmax, with the 1/sqrt(d) scale inside the softmax argument after the blend
# why: the masks are keep masks (1 = attend) and the blend keeps the scores where the mask is 1 and puts -1e10 where it is 0, which the scale then divides but leaves far below any real score; the float32 graph holds -1e10; the tile over heads matches the heads-major split/concat layout
# looks-like: ATT002, ATT003, ATT004, ATT007
# source: https://github.com/lilianweng/transformer-tensorflow https://github.com/lilianweng/transformer-tensorflow/commit/c6d34155c23250d9168d3c7677783da8800216c3 transformer.py
import numpy as np
import tensorflow as tf


class TinyTransformer:
    def __init__(self, d_model=512, h=8, pad_id=0):
        self.d_model, self.h, self._pad_id = d_model, h, pad_id

    def construct_padding_mask(self, inp):
        """inp: (batch, seq_len) word ids -> (batch, seq_len, seq_len), 0 at <pad> keys, 1 elsewhere."""
        seq_len = inp.shape.as_list()[1]
        mask = tf.cast(tf.not_equal(inp, self._pad_id), tf.float32)
        return tf.tile(tf.expand_dims(mask, 1), [1, seq_len, 1])

    def construct_autoregressive_mask(self, target):
        """target: (batch, seq_len) -> (batch, seq_len, seq_len), 1 on and below the diagonal."""
        batch_size, seq_len = target.shape.as_list()
        tri_matrix = np.zeros((seq_len, seq_len))
        tri_matrix[np.tril_indices(seq_len)] = 1
        mask = tf.convert_to_tensor(tri_matrix, dtype=tf.float32)
        return tf.tile(tf.expand_dims(mask, 0), [batch_size, 1, 1])

    def scaled_dot_product_attention(self, Q, K, V, mask=None):
        # Q: (h * bs, q_size, d); K, V: (h * bs, k_size, d); mask: (h * bs, q_size, k_size)
        d = self.d_model // self.h
        out = tf.matmul(Q, tf.transpose(K, [0, 2, 1]))  # (h * bs, q_size, k_size)
        if mask is not None:
            # masking out (0.0) => setting to -inf
            out = tf.multiply(out, mask) + (1.0 - mask) * (-1e10)
        out = tf.nn.softmax(out / tf.sqrt(tf.cast(d, tf.float32)))
        return tf.matmul(out, V)  # (h * bs, q_size, d)

    def multihead_attention(self, query, memory=None, mask=None, scope="attn"):
        # query: (batch, q_size, d_model); memory: (batch, m_size, d_model); mask: (batch, q_size, k_size)
        memory = query if memory is None else memory
        with tf.variable_scope(scope):
            Q = tf.layers.dense(query, self.d_model, activation=tf.nn.relu)
            K = tf.layers.dense(memory, self.d_model, activation=tf.nn.relu)
            V = tf.layers.dense(memory, self.d_model, activation=tf.nn.relu)
            Q_split = tf.concat(tf.split(Q, self.h, axis=2), axis=0)  # (h * batch, q_size, d)
            K_split = tf.concat(tf.split(K, self.h, axis=2), axis=0)
            V_split = tf.concat(tf.split(V, self.h, axis=2), axis=0)
            mask_split = tf.tile(mask, [self.h, 1, 1]) if mask is not None else None
            out = self.scaled_dot_product_attention(Q_split, K_split, V_split, mask=mask_split)
            out = tf.concat(tf.split(out, self.h, axis=0), axis=2)  # (batch, q_size, d_model)
            return tf.layers.dense(out, self.d_model)
