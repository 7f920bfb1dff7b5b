# case: softmax-dmn-tf-gate-over-batch-columns
# modelled-on: therne/dmn-tensorflow https://github.com/therne/dmn-tensorflow/issues/6
# label: buggy
# class: real-bug
# pattern: TF1 episodic-memory attention gate computed one fact at a time in a column-major layout (features x batch), so the gate for one fact is a (1, N) row over the batch; tf.nn.softmax with its default last axis
# why: the paper (DMN+, eq. 10) normalises the gates over the facts of one example; here each fact's (1, N) gate row is softmaxed over the N examples of the batch, so gates compete across examples and not across facts (issue #6, confirmed by a second user; never fixed)
# source: https://github.com/therne/dmn-tensorflow https://github.com/therne/dmn-tensorflow/issues/6 models/new/episode_module.py
import tensorflow as tf


def weight(name, shape):
    return tf.get_variable(name, shape, initializer=tf.contrib.layers.xavier_initializer())


def bias(name, shape):
    return tf.get_variable(name, shape, initializer=tf.zeros_initializer())


class EpisodeGate:
    """Builds one episode vector from the facts, gating each fact with attention."""

    def __init__(self, hidden, question, facts, gru_cell):
        # question: [N, d]; facts: [N, F, d]
        self.question_t = tf.transpose(question)  # [d, N]
        self.facts_t = tf.unstack(tf.transpose(facts, [1, 2, 0]))  # F x [d, N]
        self.facts = [tf.transpose(f) for f in self.facts_t]  # F x [N, d]
        self.w1 = weight("gate_w1", [hidden, 4 * hidden])
        self.b1 = bias("gate_b1", [hidden, 1])
        self.w2 = weight("gate_w2", [1, hidden])
        self.b2 = bias("gate_b2", [1, 1])
        self.gru = gru_cell

    def episode(self, memory):
        # memory: [N, d]
        memory_t = tf.transpose(memory)  # [d, N]
        state = tf.zeros_like(self.facts[0])  # [N, d]
        with tf.variable_scope("episode_gate") as scope:
            for fact_t, fact in zip(self.facts_t, self.facts):
                gate = self.gate(fact_t, memory_t)  # [N, 1]
                state = self.gru(fact, state, gate)
                scope.reuse_variables()
        return state

    def gate(self, fact_t, memory_t):
        # fact_t, memory_t: [d, N]
        q = self.question_t
        z = tf.concat(
            [fact_t * q, fact_t * memory_t, tf.abs(fact_t - q), tf.abs(fact_t - memory_t)], axis=0
        )  # [4d, N]
        hidden = tf.nn.tanh(tf.matmul(self.w1, z) + self.b1)  # [d, N]
        score = tf.matmul(self.w2, hidden) + self.b2  # [1, N]
        score = tf.nn.softmax(score)  # expect: ATT001
        return tf.transpose(score)  # [N, 1]
