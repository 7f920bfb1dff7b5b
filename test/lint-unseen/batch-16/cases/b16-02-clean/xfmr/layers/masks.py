import tensorflow as tf


class BaseMask(tf.keras.layers.Layer):
    """Builds a 0/1 mask in which 1 marks a position to hide, scales it by mask_value and adds it to the scores."""

    def __init__(self, mask_value=-1e9, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value

    def build_mask(self, q_len, k_len, *args, **kwargs):
        raise NotImplementedError

    def call(self, scores, *args, **kwargs):
        q_len = tf.shape(scores)[-2]
        k_len = tf.shape(scores)[-1]
        hide = self.build_mask(q_len, k_len, *args, **kwargs)
        bias = tf.cast(self.mask_value, scores.dtype) * tf.cast(hide, scores.dtype)
        return tf.add(scores, bias)


class LookAheadMask(BaseMask):
    def build_mask(self, q_len, k_len, *args, **kwargs):
        # 1 strictly above the diagonal: the future positions to hide
        lower = tf.linalg.LinearOperatorLowerTriangular(tf.ones((q_len, k_len))).to_dense()
        return 1 - lower


class PaddingMask(BaseMask):
    def build_mask(self, q_len, k_len, padding_mask=None, *args, **kwargs):
        # padding_mask: 1 on padded key positions
        return padding_mask
