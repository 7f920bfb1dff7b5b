# case: b7-05-clean
# modelled-on: Siddhesh290307/Transformer_Implementation https://github.com/Siddhesh290307/Transformer_Implementation/commit/05675fa5adc15b3ab0bc5f40153aa5ff48ad17c1
# label: correct
# class: clean
# pattern: a Keras encoder-decoder transformer with per-head projection tensors (H, d_model, d_k) applied by einsum 'btd,hdk->bhtk', a scaled dot-product function that adds mask * -1e9 to the logits, and masks built in a separate masking module in the TensorFlow tutorial's convention (1.0 = hide: tf.equal(seq, 0), 1 - band_part, tf.maximum of the two); a training step in a third module builds the masks and calls the model
# why: correct: the masks are 1 where a position must be hidden and are added as mask * -1e9, the scale is sqrt of the per-head key width, the softmax runs over the key axis of (B, H, T, S), and everything runs in float32
# looks-like: ATT001, ATT002, ATT004, ATT007
# source: https://github.com/Siddhesh290307/Transformer_Implementation https://github.com/Siddhesh290307/Transformer_Implementation/commit/05675fa5adc15b3ab0bc5f40153aa5ff48ad17c1 model/attention.py
import tensorflow as tf


def scaled_dot_product_attention(Q, K, V, mask=None):
    # Q: (B, H, T, dk), K, V: (B, H, S, dk)
    matmul_QK = tf.matmul(Q, K, transpose_b=True)  # (B, H, T, S)
    dk = tf.cast(tf.shape(K)[-1], tf.float32)
    scaled_logits = matmul_QK / tf.math.sqrt(dk)
    if mask is not None:
        scaled_logits += mask * -1e9
    attention_weights = tf.nn.softmax(scaled_logits, axis=-1)
    return tf.matmul(attention_weights, V)


class MultiheadAttention(tf.keras.layers.Layer):
    def __init__(self, H, d_model, dk, dv):
        super().__init__()
        init = tf.keras.initializers.GlorotUniform()
        self.WQ = tf.Variable(init(shape=(H, d_model, dk)), trainable=True)
        self.WK = tf.Variable(init(shape=(H, d_model, dk)), trainable=True)
        self.WV = tf.Variable(init(shape=(H, d_model, dv)), trainable=True)
        self.WO = tf.Variable(init(shape=(H * dv, d_model)), trainable=True)

    def call(self, Q, K, V, mask=None):
        Qh = tf.einsum("btd,hdk->bhtk", Q, self.WQ)
        Kh = tf.einsum("btd,hdk->bhtk", K, self.WK)
        Vh = tf.einsum("btd,hdv->bhtv", V, self.WV)
        Ah = scaled_dot_product_attention(Qh, Kh, Vh, mask)  # (B, H, T, dv)
        Ah = tf.transpose(Ah, [0, 2, 1, 3])
        A = tf.reshape(Ah, (tf.shape(Ah)[0], tf.shape(Ah)[1], -1))
        return tf.matmul(A, self.WO)
