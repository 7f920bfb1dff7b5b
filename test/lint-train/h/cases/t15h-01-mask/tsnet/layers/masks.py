import tensorflow as tf


class FutureMask:
    """Causal mask for the decoder's first self-attention."""

    def __init__(self, batch_heads, length):
        shape = [batch_heads, length, length]  # heads are stacked on the batch axis
        upper = tf.linalg.band_part(tf.ones(shape), 0, -1)  # upper triangle, diagonal included
        diag = tf.linalg.band_part(tf.ones(shape), 0, 0)  # diagonal only
        self._mask = tf.cast(upper - diag, dtype=tf.float32)  # 1 strictly above the diagonal
        tf.stop_gradient(self._mask)

    @property
    def mask(self):
        return self._mask
