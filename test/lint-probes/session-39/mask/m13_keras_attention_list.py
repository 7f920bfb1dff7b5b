import tensorflow as tf

emb = tf.keras.layers.Embedding(10000, 64, mask_zero=True)
att = tf.keras.layers.Attention(use_scale=True)


def encode(query_ids, value_ids):
    q = emb(query_ids)  # (B, Tq, 64)
    v = emb(value_ids)  # (B, Tv, 64)
    q_mask = emb.compute_mask(query_ids)  # True at tokens
    v_mask = emb.compute_mask(value_ids)
    return att([q, v], mask=[q_mask, v_mask])
