# case: softmax-rnet-tf-pointer-softmax-then-expand
# modelled-on: localminimum/R-net https://github.com/localminimum/R-net/issues/8
# label: correct
# class: fixed
# pattern: TF1 answer-pointer network; the shared additive-attention helper returns (batch, T) scores softmaxed over T (its default), and the caller only adds the trailing axis for broadcasting against the passage
# why: the fix of #9: the softmax is taken over the T passage positions before expand_dims, so the pool is a weighted average; the raw logits of the pointer are still returned for the loss
# looks-like: ATT001, ATT003
# source: https://github.com/localminimum/R-net https://github.com/localminimum/R-net/commit/6c1575e7696c50d5ff30fcc44db16074aecfdced layers.py
import tensorflow as tf

ATTN_SIZE = 75


def additive_scores(inputs, units, weights, scope="attention", output_fn="softmax", reuse=None):
    """inputs: list of (batch, T, d_i) or (batch, d_i) tensors; returns (batch, T) scores, softmaxed over T by default."""
    with tf.variable_scope(scope, reuse=reuse):
        projected = []
        for i, (inp, w) in enumerate(zip(inputs, weights)):
            shapes = inp.shape.as_list()
            flat = tf.reshape(inp, (-1, shapes[-1]))
            if w is None:
                w = tf.get_variable("w_%d" % i, shape=[shapes[-1], units], dtype=tf.float32)
            out = tf.matmul(flat, w)
            if len(shapes) > 2:
                out = tf.reshape(out, (shapes[0], shapes[1], -1))  # (batch, T, units)
            else:
                out = tf.reshape(out, (shapes[0], 1, -1))  # (batch, 1, units)
            projected.append(out)
        total = sum(projected)
        v = tf.get_variable("v", shape=[units], dtype=tf.float32)
        scores = tf.reduce_sum(tf.tanh(total) * v, [-1])  # (batch, T)
        if output_fn == "softmax":
            return tf.nn.softmax(scores)
        return scores


def question_pooling(question, units, weights, scope="question_pooling"):
    # question: (batch, Tq, d)
    with tf.variable_scope(scope):
        v_r = tf.get_variable("question_param", shape=(question.shape[1], units), dtype=tf.float32)
        attn = additive_scores([question, v_r], units, weights, scope="question_attention_pooling")  # (batch, Tq)
        attn = tf.expand_dims(attn, -1)  # (batch, Tq, 1)
        return tf.reduce_sum(attn * question, 1)  # (batch, d)


def pointer_net(passage, question, cell, params, scope="pointer_network"):
    # passage: (batch, Tp, d)
    with tf.variable_scope(scope):
        weights_q, weights_p = params
        initial_state = question_pooling(question, ATTN_SIZE, weights_q)
        p1_logits = additive_scores([passage, initial_state], ATTN_SIZE, weights_p, output_fn=None)  # (batch, Tp)
        p1_weights = tf.nn.softmax(p1_logits)  # (batch, Tp)
        scores = tf.expand_dims(p1_weights, -1)  # (batch, Tp, 1)
        attention_pool = tf.reduce_sum(scores * passage, 1)  # (batch, d)
        _, state = cell(attention_pool, initial_state)
        p2_logits = additive_scores([passage, state], ATTN_SIZE, weights_p, output_fn=None, reuse=True)
        return tf.stack((p1_logits, p2_logits), 1)  # (batch, 2, Tp)
