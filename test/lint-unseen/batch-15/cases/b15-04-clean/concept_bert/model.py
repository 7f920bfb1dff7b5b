import tensorflow as tf

from concept_bert.layers import HeadedAttention, TimeSelfAttention


def build_concept_bert(vocab_size, max_len, width=128, heads=8, window=101):
    concept_ids = tf.keras.layers.Input(shape=(max_len,), dtype="int32", name="concept_ids")
    time_stamps = tf.keras.layers.Input(shape=(max_len,), dtype="int32", name="time_stamps")
    pad = tf.keras.layers.Input(shape=(max_len,), dtype="int32", name="pad")

    head_pad = tf.expand_dims(tf.expand_dims(pad, axis=1), axis=1)  # (batch, 1, 1, seq)

    x = tf.keras.layers.Embedding(vocab_size, width)(concept_ids)
    time_logits = TimeSelfAttention(vocab_size, max_len, window=window)([concept_ids, time_stamps, pad])
    time_logits = tf.expand_dims(time_logits, axis=1)  # one bias shared by the heads

    attn, _ = HeadedAttention(width, heads)(x, x, x, head_pad, time_logits)
    x = tf.keras.layers.LayerNormalization(epsilon=1e-6)(x + attn)
    logits = tf.keras.layers.Dense(vocab_size)(x)
    out = tf.keras.layers.Softmax(name="concept_predictions")(logits)
    return tf.keras.Model(inputs=[concept_ids, time_stamps, pad], outputs=out)
