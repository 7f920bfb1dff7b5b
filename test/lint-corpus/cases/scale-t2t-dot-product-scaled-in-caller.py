# case: scale-t2t-dot-product-scaled-in-caller
# modelled-on: tensorflow/tensor2tensor https://github.com/tensorflow/tensor2tensor/issues/1197
# label: correct
# pattern: tensor2tensor: dot_product_attention itself has no scale; multihead_attention scales q by key_depth_per_head ** -0.5 before calling it (a reader in #1197 thought the scale was missing)
# why: the scale is folded into q in the caller, so the softmax input is scaled exactly once; the bias is additive with -1e9 at pads in float32
# looks-like: ATT003, ATT005, ATT007
import tensorflow as tf


def attention_bias_ignore_padding(memory_padding):
    """memory_padding: (batch, memory_length) float, 1.0 at padding -> additive bias."""
    ret = memory_padding * -1e9
    return tf.expand_dims(tf.expand_dims(ret, axis=1), axis=1)  # (batch, 1, 1, memory_length)


def split_heads(x, num_heads):
    batch, length, depth = tf.shape(x)[0], tf.shape(x)[1], x.shape[-1]
    x = tf.reshape(x, [batch, length, num_heads, depth // num_heads])
    return tf.transpose(x, [0, 2, 1, 3])


def combine_heads(x):
    x = tf.transpose(x, [0, 2, 1, 3])
    batch, length = tf.shape(x)[0], tf.shape(x)[1]
    return tf.reshape(x, [batch, length, x.shape[-2] * x.shape[-1]])


def dot_product_attention(q, k, v, bias, dropout_rate=0.0, name=None):
    with tf.name_scope(name or "dot_product_attention"):
        logits = tf.matmul(q, k, transpose_b=True)  # (batch, heads, length_q, length_kv)
        if bias is not None:
            logits += bias
        weights = tf.nn.softmax(logits, name="attention_weights")
        weights = tf.nn.dropout(weights, rate=dropout_rate)
        return tf.matmul(weights, v)


def multihead_attention(query_antecedent, memory_antecedent, bias, total_key_depth, total_value_depth, output_depth, num_heads, dropout_rate=0.0):
    q = tf.keras.layers.Dense(total_key_depth, use_bias=False)(query_antecedent)
    k = tf.keras.layers.Dense(total_key_depth, use_bias=False)(memory_antecedent)
    v = tf.keras.layers.Dense(total_value_depth, use_bias=False)(memory_antecedent)
    q, k, v = split_heads(q, num_heads), split_heads(k, num_heads), split_heads(v, num_heads)
    key_depth_per_head = total_key_depth // num_heads
    q *= key_depth_per_head ** -0.5
    x = dot_product_attention(q, k, v, bias, dropout_rate)
    x = combine_heads(x)
    return tf.keras.layers.Dense(output_depth, use_bias=False)(x)
