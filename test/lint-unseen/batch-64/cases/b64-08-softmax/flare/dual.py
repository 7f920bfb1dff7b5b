# case: b64-08-softmax
# modelled-on: HaodiJiang/MagNet https://github.com/HaodiJiang/MagNet/commit/83a2fe696cfeff673e6cd4422778987d0eb3b8bd
# label: buggy
# class: real-bug
# pattern: Keras position and channel attention modules (DANet's PAM and CAM) in an image classifier (a folder: `dual.py` holds both layers, `net.py` puts them side by side on a conv backbone); PAM softmaxes the (B, HW, HW) position energies over the last axis and contracts them with the values as `batch_dot(weights, values)`; CAM builds the (B, C, C) channel energies a^T a, softmaxes them over the last axis and then computes `batch_dot(features, weights)` with the (B, HW, C) features on the left
# why: buggy: in CAM the softmax normalises each row of the channel map (weights[c, :] sums to one), but `features @ weights` gives output channel c as sum over c' of features[:, c'] * weights[c', c], i.e. it contracts the map over its row (query) axis, so the weights that build each output channel do not sum to one; DANet's channel attention module, which the layer is named after and reimplements (paper eq. 3 and the reference code `bmm(attention, proj_value)`), combines the channels with each row of the normalised map, i.e. weights @ features^T; PAM, with the weights on the left, is correct; no fix commit exists
# source: https://github.com/HaodiJiang/MagNet https://github.com/HaodiJiang/MagNet/commit/83a2fe696cfeff673e6cd4422778987d0eb3b8bd layers/attention.py
import tensorflow as tf
from tensorflow.keras import layers
from tensorflow.keras.backend import batch_dot


class PositionAttention(layers.Layer):
    """Each position gathers the values of all positions, weighted by query-key similarity."""

    def build(self, input_shape):
        channels = int(input_shape[-1])
        self.to_b = layers.Conv2D(channels // 8, 1, use_bias=False, kernel_initializer="he_normal")
        self.to_c = layers.Conv2D(channels // 8, 1, use_bias=False, kernel_initializer="he_normal")
        self.to_d = layers.Conv2D(channels, 1, use_bias=False, kernel_initializer="he_normal")
        self.gamma = self.add_weight(name="gamma", shape=(1,), initializer="zeros")
        super().build(input_shape)

    def call(self, x):
        _, h, w, ch = x.shape
        q = tf.reshape(self.to_b(x), (-1, h * w, ch // 8))
        k_t = tf.transpose(tf.reshape(self.to_c(x), (-1, h * w, ch // 8)), (0, 2, 1))
        weights = layers.Activation("softmax")(batch_dot(q, k_t))  # (B, HW, HW), rows sum to one
        v = tf.reshape(self.to_d(x), (-1, h * w, ch))
        out = tf.reshape(batch_dot(weights, v), (-1, h, w, ch))
        return self.gamma * out + x


class ChannelAttention(layers.Layer):
    """Each channel is rebuilt from all channels, weighted by channel-channel similarity."""

    def build(self, input_shape):
        self.gamma = self.add_weight(name="gamma", shape=(1,), initializer="zeros")
        super().build(input_shape)

    def call(self, x):
        _, h, w, ch = x.shape
        feats = tf.reshape(x, (-1, h * w, ch))  # (B, HW, C)
        energy = batch_dot(tf.transpose(feats, (0, 2, 1)), feats)  # (B, C, C)
        weights = layers.Activation("softmax")(energy)  # rows sum to one
        mixed = batch_dot(feats, weights)  # expect: ATT001
        return self.gamma * tf.reshape(mixed, (-1, h, w, ch)) + x
