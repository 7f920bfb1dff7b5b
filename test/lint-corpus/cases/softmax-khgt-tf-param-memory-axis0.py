# case: softmax-khgt-tf-param-memory-axis0
# modelled-on: akaxlh/KHGT https://github.com/akaxlh/KHGT/issues/6
# label: correct
# pattern: the same TF1 graph attention; the [M, 1, 1] mixing weights are normalised with tf.nn.softmax(..., axis=0), over the memory slots; the broadcasting multi-head self-attention with reduce_sum keepdims and softmax(axis=2) is unchanged
# why: axis 0 is the M memory slots the paper mixes; axis 2 of the [B, n_q, n_k, h, 1] self-attention scores is the key axis
# looks-like: ATT001, ATT005
import numpy as np
import tensorflow as tf


def make_param(name, shape):
    return tf.get_variable(name, shape=shape, initializer=tf.glorot_uniform_initializer())


class KnowledgeGraphAttention:
    def __init__(self, latdim: int, memosize: int, heads: int):
        self.latdim = latdim
        self.memosize = memosize
        self.heads = heads

    def gat(self, src_embeds, tgt_embeds, tgt_nodes, Qs, Ks, Vs, name):
        # Qs, Ks, Vs: [M, d, d]; the mixing weights broadcast over the last two axes
        q_mix = tf.nn.softmax(make_param(name + "_q", [self.memosize, 1, 1]), axis=0)
        k_mix = tf.nn.softmax(make_param(name + "_k", [self.memosize, 1, 1]), axis=0)
        v_mix = tf.nn.softmax(make_param(name + "_v", [self.memosize, 1, 1]), axis=0)
        Q = tf.reduce_sum(Qs * q_mix, axis=0)  # [d, d]
        K = tf.reduce_sum(Ks * k_mix, axis=0)
        V = tf.reduce_sum(Vs * v_mix, axis=0)
        dh = self.latdim // self.heads
        q = tf.reshape(tgt_embeds @ Q, [-1, self.heads, dh])  # [E, h, dh], one row per edge
        k = tf.reshape(src_embeds @ K, [-1, self.heads, dh])
        v = tf.reshape(src_embeds @ V, [-1, self.heads, dh])
        # edge softmax: exp of the per-edge logit, normalised by the sum over the target's edges
        logits = tf.exp(tf.reduce_sum(q * k, axis=-1, keepdims=True) / np.sqrt(dh))  # [E, h, 1]
        norm = tf.gather(tf.math.segment_sum(logits, tgt_nodes), tgt_nodes) + 1e-6
        att = logits / norm
        return tf.reshape(tf.math.segment_sum(att * v, tgt_nodes), [-1, self.latdim])


def light_self_attention(local_reps, number: int, inp_dim: int, heads: int):
    # local_reps: list of `number` tensors [B, d]; attention among the behaviour types
    W = make_param("light_q", [inp_dim, inp_dim])
    stacked = tf.reshape(tf.stack(local_reps, axis=1), [-1, inp_dim])  # [B * n, d]
    proj = stacked @ W
    dh = inp_dim // heads
    q = tf.reshape(proj, [-1, number, 1, heads, dh])  # [B, n_q, 1, h, dh]
    k = tf.reshape(proj, [-1, 1, number, heads, dh])  # [B, 1, n_k, h, dh]
    v = tf.reshape(stacked, [-1, 1, number, heads, dh])
    # [B, n_q, n_k, h, 1]: softmax over the key axis 2
    att = tf.nn.softmax(tf.reduce_sum(q * k, axis=-1, keepdims=True) / tf.sqrt(inp_dim / heads), axis=2)
    attval = tf.reshape(tf.reduce_sum(att * v, axis=2), [-1, number, inp_dim])  # [B, n_q, d]
    return [tf.reshape(attval[:, i, :], [-1, inp_dim]) + local_reps[i] for i in range(number)]
