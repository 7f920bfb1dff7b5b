# case: b48-05-clean
# modelled-on: seuliufeng/ivqa_belief_set https://github.com/seuliufeng/ivqa_belief_set/commit/6ebba50ff001e1af6695bb3f4d2643e7072ee153
# label: correct
# class: clean
# pattern: TensorFlow 1 (slim) soft attention over a CNN feature map for visual question answering, at several scales (a folder: the fusion and attention helpers in layers.py, the multi-scale heads here): the attention logits are a 1x1 convolution of the fused map, (B, H, W, 1); the helper transposes them to NCHW, reshapes to (-1, H*W), applies tf.nn.softmax with its default last axis and reshapes back; a gate network mixes the per-scale answers with a softmax over the scales
# why: correct: after the transpose and reshape the last axis holds the H*W grid cells of one map, so the default-axis softmax normalises over the spatial positions, which is what the weighted sum over axes [1, 2] needs; the attention is additive (bilinear fusion, then a 1x1 convolution), not a dot product of queries and keys, so there is no 1/sqrt(d); the gate softmax normalises over the scales, as intended
# looks-like: ATT001, ATT003
# source: https://github.com/seuliufeng/ivqa_belief_set https://github.com/seuliufeng/ivqa_belief_set/commit/6ebba50ff001e1af6695bb3f4d2643e7072ee153 attention_ops.py
import tensorflow as tf
import tensorflow.contrib.slim as slim

from layers import attend_grid, bilinear_fuse


def soft_attention(image, question, width, keep_prob=1.0, scope=""):
    with tf.variable_scope(scope or "att"):
        fused = bilinear_fuse(image, question, width, keep_prob)
        pooled, _ = attend_grid(image, fused)
    return pooled


def downsample(net, channels, keep_prob, scope=""):
    with tf.variable_scope(scope):
        net = slim.conv2d(net, 256, kernel_size=1, scope="reduce")
        net = slim.conv2d(net, channels, kernel_size=3, stride=2, scope="down")
        return slim.dropout(net, keep_prob=keep_prob)


def scale_answer_logits(net, question, width, n_answers, keep_prob, scope):
    with tf.variable_scope(scope):
        pooled = soft_attention(net, question, width, keep_prob=keep_prob)
        joint = bilinear_fuse(pooled, question, width, keep_prob, scope="joint")
        logits = slim.fully_connected(joint, n_answers, activation_fn=None, scope="answers")
        return tf.expand_dims(logits, 1)                # (B, 1, A)


def gated_multiscale_answers(net, question, width, n_answers, keep_prob, scale_channels,
                             scale_width=256, gate_width=256):
    per_scale = [scale_answer_logits(net, question, width, n_answers, keep_prob, "scale_0")]
    level = net
    for i, channels in enumerate(scale_channels):
        name = "scale_%d" % (i + 1)
        level = downsample(level, channels, keep_prob, scope=name)
        per_scale.append(scale_answer_logits(level, question, scale_width, n_answers, keep_prob, name))
    per_scale = tf.concat(per_scale, axis=1)            # (B, S, A)

    summary = tf.reduce_max(net, axis=[1, 2])
    gate_h = bilinear_fuse(summary, question, gate_width, keep_prob, scope="gate")
    gate_logits = slim.fully_connected(gate_h, len(scale_channels) + 1, activation_fn=None, scope="gate_logits")
    gates = tf.expand_dims(tf.nn.softmax(gate_logits), 2)   # (B, S, 1)
    return tf.reduce_sum(per_scale * gates, axis=1)
