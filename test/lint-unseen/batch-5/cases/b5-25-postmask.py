# case: b5-25-postmask
# modelled-on: flrngel/Transformer-tensorflow https://github.com/flrngel/Transformer-tensorflow/commit/070df0369d680e02e8e873f4664f00b5cd4b4b28
# label: buggy
# class: real-bug
# pattern: an early TensorFlow 1 transformer: each head is its own block with dense projections; the decoder's self-attention (masked=True) builds a lower-triangular 0/1 matrix with LinearOperatorTriL over ones, tiles it over the batch, and multiplies it into Q @ K^T before dividing by sqrt(d_k) and taking tf.nn.softmax over the last axis
# why: multiplying the logits by a 0/1 mask sets the future logits to 0, not to a large negative value: exp(0) = 1, so every query still gives the future positions a weight comparable to the past ones and the decoder sees the tokens it must predict (the paper masks by setting those inputs of the softmax to -inf); no fix was found, the repository was last changed in 2017, and the label rests on the paper and on the function's own "Mask" step for the decoder
# source: https://github.com/flrngel/Transformer-tensorflow https://github.com/flrngel/Transformer-tensorflow/commit/070df0369d680e02e8e873f4664f00b5cd4b4b28 model.py
import tensorflow as tf

flags = tf.app.flags
FLAGS = flags.FLAGS


def attention_head(vk_input, q_input, batch_size, pad_length, d_k, d_v, masked=False):
    with tf.variable_scope("head"):
        K = tf.layers.dense(vk_input, d_k, name="K", activation=tf.nn.relu)
        V = tf.layers.dense(vk_input, d_v, name="V", activation=tf.nn.relu)
        Q = tf.layers.dense(q_input, d_k, name="Q", activation=tf.nn.relu)
        # (pad_length, pad_length) of ones, lower triangle for the decoder
        mask = tf.ones([pad_length, pad_length])
        if masked:
            mask = tf.contrib.linalg.LinearOperatorTriL(mask, tf.float32).to_dense()
        mask = tf.reshape(tf.tile(mask, [batch_size, 1]), [batch_size, pad_length, pad_length])
        # [B, T, d_k] @ [B, d_k, T] -> [B, T, T]
        attn = tf.nn.softmax(
            mask * (Q @ tf.transpose(K, [0, 2, 1])) / tf.sqrt(tf.to_float(d_k))  # expect: ATT006
        ) @ V
        return attn


def multihead_attention(vk_input, q_input, masked=False):
    batch_size = tf.shape(vk_input)[0]
    outputs = []
    for i in range(FLAGS.h):
        with tf.variable_scope("head_%d" % i):
            outputs.append(attention_head(vk_input, q_input, batch_size, FLAGS.pad_length, FLAGS.d_k, FLAGS.d_v, masked=masked))
    outputs = tf.concat(outputs, axis=2)
    return tf.layers.dense(outputs, FLAGS.d_model)


def decoder_self_attention(outputs):
    with tf.variable_scope("decoder", reuse=tf.AUTO_REUSE):
        return multihead_attention(outputs, outputs, masked=True)
