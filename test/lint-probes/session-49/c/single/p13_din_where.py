import tensorflow as tf


def din_attention(queries, keys, keys_length, units=36):
    """Deep Interest Network's activation unit: a user's behaviours weighted by the candidate ad."""
    # queries: [B, H]; keys: [B, T, H]
    T = tf.shape(keys)[1]
    queries = tf.tile(tf.expand_dims(queries, 1), [1, T, 1])
    din_all = tf.concat([queries, keys, queries - keys, queries * keys], axis=-1)
    h = tf.keras.layers.Dense(units, activation="sigmoid")(din_all)
    outputs = tf.keras.layers.Dense(1)(h)  # [B, T, 1]
    outputs = tf.transpose(outputs, [0, 2, 1])  # [B, 1, T]
    key_masks = tf.expand_dims(tf.sequence_mask(keys_length, T), 1)  # [B, 1, T]
    paddings = tf.ones_like(outputs) * (-(2.0 ** 32) + 1)
    outputs = tf.where(key_masks, outputs, paddings)
    outputs = outputs / (keys.get_shape().as_list()[-1] ** 0.5)
    outputs = tf.nn.softmax(outputs)
    return tf.matmul(outputs, keys)  # [B, 1, H]
