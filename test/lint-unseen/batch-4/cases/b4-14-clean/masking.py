import tensorflow as tf


class Masks:
    @classmethod
    def padding(cls, ids):
        # 1.0 where the id is the padding id 0, then (batch, 1, 1, seq)
        pad = tf.cast(tf.math.equal(ids, 0), dtype=tf.float32)
        return pad[:, tf.newaxis, tf.newaxis, :]

    @classmethod
    def look_ahead(cls, n):
        # 1.0 strictly above the diagonal
        return 1 - tf.linalg.band_part(tf.ones((n, n)), -1, 0)

    @classmethod
    def for_batch(cls, src, tgt_in):
        enc_pad = cls.padding(src)
        cross_pad = cls.padding(src)
        self_mask = tf.maximum(cls.look_ahead(tf.shape(tgt_in)[1]), cls.padding(tgt_in))
        return enc_pad, self_mask, cross_pad
