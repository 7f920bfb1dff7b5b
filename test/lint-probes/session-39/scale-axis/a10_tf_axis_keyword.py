import tensorflow as tf


def scaled_dot_product_attention(q, k, v, mask):
    # q: (..., seq_q, depth), k: (..., seq_k, depth), v: (..., seq_k, depth_v)
    matmul_qk = tf.matmul(q, k, transpose_b=True)  # (..., seq_q, seq_k)
    dk = tf.cast(tf.shape(k)[-1], tf.float32)
    logits = matmul_qk / tf.math.sqrt(dk)
    if mask is not None:
        logits += mask * -1e9
    weights = tf.nn.softmax(logits, axis=3)  # (B, H, seq_q, seq_k): axis 3 is seq_k
    return tf.matmul(weights, v), weights
