# case: b53-04-clean
# modelled-on: AaronYALai/Seq2seqAttn_ECM https://github.com/AaronYALai/Seq2seqAttn_ECM/commit/5fde144755255015e2d10b27f87ae780292b9965
# label: correct
# class: clean
# pattern: a TensorFlow 1.x RNNCell wrapper with Bahdanau (additive) attention over the encoder memory, recomputing the context after every decoder step (emotional chatting machine baseline)
# why: correct: the scores are additive, v^T tanh(W_m m + W_q q) from a one-unit dense layer, so there is no dot product and no 1/sqrt(d) factor to apply; the query is expanded to [batch, 1, units] and the scores come out as [batch, time, 1], so after squeezing the last axis the softmax's default last axis is the memory's time axis; the weights are expanded back and the context is a sum over axis 1 (time); the original passes no padding mask over the memory (a missing padding mask is outside the rules)
# looks-like: ATT001, ATT003
# source: https://github.com/AaronYALai/Seq2seqAttn_ECM https://github.com/AaronYALai/Seq2seqAttn_ECM/commit/5fde144755255015e2d10b27f87ae780292b9965 model/attention.py
import collections

import tensorflow as tf
from tensorflow.contrib.rnn import RNNCell

StepState = collections.namedtuple("StepState", ("inner", "out", "ctx"))


class AdditiveAttentionCell(RNNCell):
    """Wraps `inner` (a multi-layer cell); memory is [batch, max_time, mem_units]."""

    def __init__(self, inner, memory, first_states, attn_units, out_units, dtype):
        self._inner = inner
        self._memory = memory
        self._first = first_states
        self._attn_units = attn_units
        self._out_units = out_units
        self._dtype = dtype
        self._state_size = StepState(inner.state_size, out_units, memory.shape[-1].value)

    @property
    def state_size(self):
        return self._state_size

    @property
    def output_size(self):
        return self._out_units

    def _context(self, q):
        """q: [batch, out_units] -> context [batch, mem_units]."""
        q = tf.expand_dims(q, 1)  # [batch, 1, out_units]
        proj_q = tf.layers.dense(q, self._attn_units, use_bias=False, name="attn_q", reuse=tf.AUTO_REUSE)
        proj_m = tf.layers.dense(self._memory, self._attn_units, use_bias=False, name="attn_m", reuse=tf.AUTO_REUSE)
        energy = tf.layers.dense(tf.tanh(proj_m + proj_q), 1, use_bias=False, name="attn_v", reuse=tf.AUTO_REUSE)
        # energy: [batch, max_time, 1] -> weights over max_time
        alphas = tf.nn.softmax(tf.squeeze(energy, axis=2))
        alphas = tf.expand_dims(alphas, 2)
        return tf.reduce_sum(alphas * self._memory, axis=1)

    def zero_state_with_context(self):
        batch = tf.shape(self._memory)[0]
        probe = tf.zeros([1, self._out_units], self._dtype)
        ctx0 = self._context(probe) * 0.0
        ctx0 = tf.tile(ctx0, [batch, 1])
        out0 = tf.zeros([batch, self._out_units], self._dtype)
        if self._first is None:
            inner0 = self._inner.zero_state(batch, self._dtype)
        else:
            inner0 = self._first
        return StepState(inner0, out0, ctx0)

    def __call__(self, inputs, state, scope=None):
        prev_inner, prev_out, prev_ctx = state
        step_in = tf.concat([inputs, prev_out, prev_ctx], axis=-1)
        out, inner = self._inner(step_in, prev_inner)
        return out, StepState(inner, out, self._context(out))
