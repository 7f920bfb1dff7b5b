# case: b5-20-clean
# modelled-on: Li-Ming-Fan/transformer-tensorflow https://github.com/Li-Ming-Fan/transformer-tensorflow/commit/4c39447a3be91f0aa03bf54ad7de3cabac2a29cd
# label: correct
# class: clean
# pattern: a TensorFlow 1 graph-mode transformer: masks are float 1/0 tensors with 1 = visible (the padding mask of the decoder input multiplied by a band_part(ones, -1, 0) lower triangle from a helper module), the multi-head layer splits heads with reshape/transpose, computes matmul(q, k, transpose_b=True) / num_units ** 0.5 with num_units the per-head width, adds (mask - 1) * 1e6 and takes tf.nn.softmax with its default last axis
# why: correct: (mask - 1) is 0 at the visible keys and -1 at the hidden ones, so the addition pushes exactly the hidden logits down by 1e6 (float32 graph); band_part(-1, 0) keeps the lower triangle, the causal past; transpose_b=True transposes the keys, and the softmax's default axis is the keys
# looks-like: ATT001, ATT002, ATT005, ATT006, ATT007
# source: https://github.com/Li-Ming-Fan/transformer-tensorflow https://github.com/Li-Ming-Fan/transformer-tensorflow/commit/4c39447a3be91f0aa03bf54ad7de3cabac2a29cd zoo_layers.py
import tensorflow as tf

from nn_utils import expand, subsequent_mask


def multihead_attention(num_heads, num_units, query, key, value, mask_mat=None, keep_prob=1.0, scope="mha"):
    dim_all = num_heads * num_units
    with tf.variable_scope(scope):
        qd = tf.layers.dense(tf.reshape(query, [-1, query.shape[-1]]), dim_all, name="query_d")
        kd = tf.layers.dense(tf.reshape(key, [-1, key.shape[-1]]), dim_all, name="key_d")
        vd = tf.layers.dense(tf.reshape(value, [-1, value.shape[-1]]), dim_all, name="value_d")
        b, n_q = tf.shape(query)[0], tf.shape(query)[1]
        n_k = tf.shape(key)[1]
        # [B, T, heads, units] -> [B, heads, T, units]
        q4 = tf.transpose(tf.reshape(qd, [b, n_q, num_heads, num_units]), [0, 2, 1, 3])
        k4 = tf.transpose(tf.reshape(kd, [b, n_k, num_heads, num_units]), [0, 2, 1, 3])
        v4 = tf.transpose(tf.reshape(vd, [b, n_k, num_heads, num_units]), [0, 2, 1, 3])
        scores = tf.matmul(q4, k4, transpose_b=True) / (num_units**0.5)  # [B, heads, TQ, TK]
        if mask_mat is not None:
            # mask_mat: [B, TQ or 1, TK], 1 = visible -> [B, 1, TQ, TK]
            m = tf.cast(tf.expand_dims(mask_mat, axis=[1]), tf.float32)
            scores += (m - 1.0) * 1000000.0
        probs = tf.nn.softmax(scores)
        probs = tf.nn.dropout(probs, keep_prob)
        out = tf.matmul(probs, v4)
        out = tf.reshape(tf.transpose(out, [0, 2, 1, 3]), [b, n_q, dim_all])
        return tf.layers.dense(out, dim_all, name="out_d")


def decoder_self_attention(settings, dec_emb, dec_seq_mask, keep_prob):
    # dec_seq_mask: [B, T], 1 at real tokens
    dec_mask = expand(dec_seq_mask, 1, dtype=tf.float32)  # [B, 1, T]
    dec_mask = dec_mask * subsequent_mask(settings.max_len_decoding)  # [B, T, T]
    return multihead_attention(settings.num_heads, settings.num_units, dec_emb, dec_emb, dec_emb, dec_mask, keep_prob, scope="dec_self")
