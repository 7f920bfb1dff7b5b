# case: postmask-pointer-generator-renormalize-tf
# modelled-on: abisee/pointer-generator https://github.com/abisee/pointer-generator/issues/88
# label: correct
# pattern: TF attention decoder: softmax over encoder steps, multiply by the encoder padding mask, divide by the masked sum (issue #88 asked whether masking should come first; the reporter later agreed it is equivalent)
# why: renormalising after zeroing the pads gives the same distribution as masking before the softmax; tf.nn.softmax defaults to the last axis (attn_length)
# looks-like: ATT001, ATT003, ATT006
import tensorflow as tf


def attention(decoder_state, encoder_features, encoder_states, enc_padding_mask, v, W_s):
    """encoder_features: (batch, attn_length, 1, attn_size); enc_padding_mask: (batch, attn_length) 1.0 = real."""

    def masked_attention(e):
        attn_dist = tf.nn.softmax(e)  # (batch, attn_length)
        attn_dist *= enc_padding_mask
        masked_sums = tf.reduce_sum(attn_dist, axis=1)  # (batch,)
        return attn_dist / tf.reshape(masked_sums, [-1, 1])

    decoder_features = tf.expand_dims(tf.expand_dims(tf.matmul(decoder_state, W_s), 1), 1)  # (batch, 1, 1, attn_size)
    e = tf.reduce_sum(v * tf.tanh(encoder_features + decoder_features), [2, 3])  # (batch, attn_length)
    attn_dist = masked_attention(e)
    context_vector = tf.reduce_sum(tf.reshape(attn_dist, [-1, tf.shape(attn_dist)[1], 1, 1]) * encoder_states, [1, 2])
    return context_vector, attn_dist
