"""Masks for the translation transformer, built from sequence lengths; the attention adds mask * -1e9 to its logits."""
import tensorflow as tf


def create_padding_mask(seq_len):
    mask = tf.sequence_mask(seq_len, dtype=tf.float32)  # (batch, max_len)
    return mask[:, tf.newaxis, tf.newaxis, :]  # (batch, 1, 1, max_len)


def create_look_ahead_mask(max_seq_len):
    return 1 - tf.linalg.band_part(tf.ones([max_seq_len, max_seq_len]), -1, 0)  # 1 above the diagonal


def create_masks(inp_len, tar_len, tar):
    enc_padding_mask = create_padding_mask(inp_len)
    dec_padding_mask = create_padding_mask(inp_len)
    look_ahead_mask = create_look_ahead_mask(tf.shape(tar)[1])
    dec_target_padding_mask = create_padding_mask(tar_len)
    combined_mask = tf.maximum(dec_target_padding_mask, look_ahead_mask)
    return enc_padding_mask, combined_mask, dec_padding_mask
