# case: t17j-02-softmax
# modelled-on: naojibrainmachine/machine-translation-Transformer https://github.com/naojibrainmachine/machine-translation-Transformer/commit/905d3a909b5756fb2995453e03e216ab8b781666
# label: buggy
# class: real-bug
# pattern: a TF2 eager Chinese-English transformer written with raw tf.Variables: per head, q / k / v weights of shape (input_nums, hidden_nums) (input_nums = embedding width, hidden_nums = q/k/v width per the docstring); self-attention computes Q @ transpose(K, [0, 2, 1]), divides by sqrt(input_nums), adds a look-ahead matrix (the original adds -inf above the diagonal, written here as -1e9) and softmaxes over axis=2; the encoder-decoder attention reuses the encoder's per-head K and V, divides by sqrt(input_nums) and softmaxes over axis=1; the training script sets input_nums=8 and hidden_nums=16
# why: buggy: in the encoder-decoder attention the scores are (batch, target_len, source_len) and axis=1 normalises over the target positions (queries) instead of over the source positions each query attends to (the same file's self-attention uses axis=2, the last, key axis); in both attentions the keys are hidden_nums wide (16 in the training script) but the scores are divided by sqrt(input_nums) (8), not by sqrt(d_k) as the paper prescribes
# source: https://github.com/naojibrainmachine/machine-translation-Transformer https://github.com/naojibrainmachine/machine-translation-Transformer/commit/905d3a909b5756fb2995453e03e216ab8b781666 ATTENTION/ATTENTION.py, train.py
import math

import numpy as np
import tensorflow as tf


def _glorot(rows, cols):
    return tf.Variable(tf.random.truncated_normal([rows, cols], stddev=tf.math.sqrt(2.0 / (rows + cols))))


class SelfAttention:
    def __init__(self, input_nums, hidden_nums, output_nums, mask=False, multi_head=1):
        # input_nums: embedding width; hidden_nums: width of q_w, k_w, v_w
        self.multi_head = multi_head
        self.input_nums = input_nums
        self.mask = mask
        self.w = {}
        for i in range(multi_head):
            for name in ("q", "k", "v"):
                self.w[name + str(i)] = _glorot(input_nums, hidden_nums)
        self.w0 = _glorot(multi_head * hidden_nums, output_nums)

    def __call__(self, x):
        outs, ks, vs = [], [], []
        for i in range(self.multi_head):
            q = tf.matmul(x, self.w["q" + str(i)])
            k = tf.matmul(x, self.w["k" + str(i)])
            v = tf.matmul(x, self.w["v" + str(i)])
            ks.append(k)
            vs.append(v)
            score = tf.matmul(q, tf.transpose(k, [0, 2, 1]))
            score = score / math.sqrt(self.input_nums)  # expect: ATT004
            if self.mask:
                n = score.shape[-1]
                future = np.triu(np.ones((n, n), dtype=np.float32), k=1) * -1e9
                score = score + future
            score = tf.nn.softmax(score, axis=2)
            outs.append(tf.matmul(score, v))
        z = tf.concat(outs, len(outs[0].shape) - 1)
        return tf.matmul(z, self.w0), ks, vs


class EncoderDecoderAttention:
    def __init__(self, input_nums, hidden_nums, output_nums, mask=False, multi_head=1):
        self.multi_head = multi_head
        self.input_nums = input_nums
        self.w = {"q" + str(i): _glorot(input_nums, hidden_nums) for i in range(multi_head)}
        self.w0 = _glorot(multi_head * hidden_nums, output_nums)

    def __call__(self, x, ks, vs):
        outs = []
        for i in range(self.multi_head):
            q = tf.matmul(x, self.w["q" + str(i)])
            score = tf.matmul(q, tf.transpose(ks[i], [0, 2, 1]))
            score = score / math.sqrt(self.input_nums)  # expect: ATT004
            score = tf.nn.softmax(score, axis=1)  # expect: ATT001
            outs.append(tf.matmul(score, vs[i]))
        z = tf.concat(outs, len(outs[0].shape) - 1)
        return tf.matmul(z, self.w0), ks, vs
