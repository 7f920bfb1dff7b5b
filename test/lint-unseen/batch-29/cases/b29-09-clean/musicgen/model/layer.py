# case: b29-09-clean
# modelled-on: cmd23333/Transformer-MusicGenerator https://github.com/cmd23333/Transformer-MusicGenerator/commit/2ac88f65f4aae7e21078e4821c0ec3438347e47c
# label: correct
# class: clean
# pattern: a MIDI music generator built on the TensorFlow transformer tutorial: util/mask.py's create_padding_mask gives 1.0 on pad notes (index 0) shaped (batch, 1, 1, seq_len); model/layer.py's scaled_dot_product_attention does tf.matmul(q, k, transpose_b=True) / sqrt(tf.shape(k)[-1]), adds mask * -1e9, softmax over axis=-1; model/block.py's MultiHeadAttention splits d_model into num_heads heads of depth d_model // num_heads before calling it, and the encoder scales the embeddings by sqrt(d_model)
# why: correct: the mask is 1 exactly on padded keys, so adding mask * -1e9 removes them and leaves real notes untouched; the scale is 1/sqrt of the keys' last axis, which after split_heads is one head's depth; the softmax runs over the key axis; the embedding multiplication by sqrt(d_model) is the transformer's input scaling, not an attention scale
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/cmd23333/Transformer-MusicGenerator https://github.com/cmd23333/Transformer-MusicGenerator/commit/2ac88f65f4aae7e21078e4821c0ec3438347e47c model/layer.py
import tensorflow as tf


def scaled_dot_product_attention(q, k, v, mask):
    matmul_qk = tf.matmul(q, k, transpose_b=True)  # (..., seq_len_q, seq_len_k)

    dk = tf.cast(tf.shape(k)[-1], tf.float32)
    scaled_attention_logits = matmul_qk / tf.math.sqrt(dk)

    if mask is not None:
        scaled_attention_logits += mask * -1e9

    attention_weights = tf.nn.softmax(scaled_attention_logits, axis=-1)
    output = tf.matmul(attention_weights, v)

    return output, attention_weights


def point_wise_feed_forward_network(d_model, dff):
    return tf.keras.Sequential([tf.keras.layers.Dense(dff, activation="relu"), tf.keras.layers.Dense(d_model)])
