import tensorflow as tf

mha = tf.keras.layers.MultiHeadAttention(num_heads=4, key_dim=32)


def decoder_block(x, ids):
    # x: (B, T, 128); ids: (B, T)
    T = tf.shape(x)[1]
    causal = tf.cast(tf.linalg.band_part(tf.ones((T, T)), -1, 0), tf.bool)  # True on and below the diagonal
    pad = tf.not_equal(ids, 0)[:, tf.newaxis, :]  # (B, 1, T) True at tokens
    return mha(x, x, attention_mask=tf.logical_and(causal[tf.newaxis], pad))
