import tensorflow as tf
from tensorflow import keras


def build(vocab=1000, d=64):
    q_in = keras.Input((None,), dtype="int32")
    v_in = keras.Input((None,), dtype="int32")
    emb = keras.layers.Embedding(vocab, d)
    q_mask = tf.sequence_mask(tf.reduce_sum(tf.cast(q_in > 0, tf.int32), -1), tf.shape(q_in)[1])
    v_mask = tf.math.not_equal(v_in, 0)
    out = keras.layers.Attention()([emb(q_in), emb(v_in)], mask=[q_mask, v_mask])
    return keras.Model([q_in, v_in], out)
