import tensorflow as tf

mha = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=16)


def encode(x, lengths):
    # x: (B, T, 32); lengths: (B,)
    keep = tf.sequence_mask(lengths, maxlen=tf.shape(x)[1])  # (B, T) True at real steps
    return mha(x, x, attention_mask=keep[:, None, :])
