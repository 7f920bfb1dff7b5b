import tensorflow as tf


def luong_general(decoder_state, encoder_outputs, W, src_len):
    """encoder_outputs is time-major, [T, B, H]; decoder_state [B, H]."""
    proj = tf.einsum("tbh,hk->tbk", encoder_outputs, W)
    scores = tf.reduce_sum(proj * decoder_state[tf.newaxis, :, :], axis=-1)  # [T, B]
    T = tf.shape(encoder_outputs)[0]
    valid = tf.transpose(tf.sequence_mask(src_len, T))  # [T, B]
    scores = tf.where(valid, scores, tf.fill(tf.shape(scores), -1e9))
    alignments = tf.nn.softmax(scores, axis=0)  # over T
    context = tf.reduce_sum(alignments[:, :, tf.newaxis] * encoder_outputs, axis=0)
    return context, alignments
