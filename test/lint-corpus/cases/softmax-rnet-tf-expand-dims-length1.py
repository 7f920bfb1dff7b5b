# case: softmax-rnet-tf-expand-dims-length1
# modelled-on: localminimum/R-net https://github.com/localminimum/R-net/issues/8
# label: buggy
# pattern: TF1 pointer network; a helper returns additive-attention logits [B, P] (reduce_sum over the last axis), the caller expand_dims(-1) to [B, P, 1] for the weighted sum over the passage, and calls tf.nn.softmax without an axis
# why: tf.nn.softmax defaults to the last axis, which expand_dims just made length 1: every weight is 1.0 and the pooled vector is the plain sum of the passage (fixed in 6c1575e by taking the softmax before expand_dims)
import tensorflow as tf

ATTN_SIZE = 75


def attention(inputs, units, weights, scope="attention", reuse=None):
    with tf.variable_scope(scope, reuse=reuse):
        projected = []
        for i, (inp, w) in enumerate(zip(inputs, weights)):
            shape = inp.shape.as_list()
            flat = tf.reshape(inp, (-1, shape[-1]))
            out = tf.matmul(flat, w)
            if len(shape) > 2:
                out = tf.reshape(out, (shape[0], shape[1], -1))
            else:
                out = tf.reshape(out, (shape[0], 1, -1))
            projected.append(out)
        summed = sum(projected)
        v = tf.get_variable("v", shape=summed.shape[-1], dtype=tf.float32)
        return tf.reduce_sum(tf.tanh(summed) * v, [-1])


def pointer_net(passage, question_state, cell, weights_p, scope="pointer_network"):
    # passage: [B, P, H]; question_state: [B, H]
    with tf.variable_scope(scope):
        p1_logits = attention([passage, question_state], ATTN_SIZE, weights_p, scope="attention")
        scores = tf.expand_dims(p1_logits, -1)
        scores = tf.nn.softmax(scores)  # expect: ATT001
        attention_pool = tf.reduce_sum(scores * passage, 1)
        _, state = cell(attention_pool, question_state)
        p2_logits = attention([passage, state], ATTN_SIZE, weights_p, scope="attention", reuse=True)
        return tf.stack((p1_logits, p2_logits), 1)
