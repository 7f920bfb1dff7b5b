# case: t8b-11-clean
# modelled-on: cyobero/datascience https://github.com/cyobero/datascience/commit/265fe481dbee94545d9348749ce24069cd4a9a69
# label: correct
# class: clean
# pattern: the notebook version of the same TensorFlow 2 transformer chatbot (kept in the repository next to the port): masks built as 1.0 = hide (padding via tf.math.equal(x, 0), look-ahead via 1 - band_part, combined with tf.maximum), added to the scaled logits as mask * -1e9, softmax over the last axis, and a Keras multi-head layer that splits heads with reshape + transpose
# why: correct: both masks are 1.0 where a key must be hidden, and mask * -1e9 pushes exactly those logits to a large negative value (float32 logits); the diagonal is never hidden for a real token so no row is all masked; depth is the per-head width after split_heads; the softmax runs over the keys
# looks-like: ATT002, ATT004, ATT006, ATT007
# source: https://github.com/cyobero/datascience https://github.com/cyobero/datascience/commit/265fe481dbee94545d9348749ce24069cd4a9a69 datasets/notebooks/transformer_chatbot_tf2_fix.ipynb
import tensorflow as tf


def scaled_dot_product_attention(query, key, value, mask):
    """Calculate the attention weights."""
    matmul_qk = tf.matmul(query, key, transpose_b=True)

    # scale matmul_qk
    depth = tf.cast(tf.shape(key)[-1], tf.float32)
    logits = matmul_qk / tf.math.sqrt(depth)

    # add the mask to zero out padding tokens
    if mask is not None:
        logits += mask * -1e9

    # softmax is normalized on the last axis (seq_len_k)
    attention_weights = tf.nn.softmax(logits, axis=-1)
    return tf.matmul(attention_weights, value)
