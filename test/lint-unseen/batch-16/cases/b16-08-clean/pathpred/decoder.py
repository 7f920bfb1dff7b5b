# case: b16-08-clean
# modelled-on: cimat-ris/TF-PathPred https://github.com/cimat-ris/TF-PathPred/commit/d6d38a806dc2fe4e95258e19af2905cbb3da6a43
# label: correct
# class: clean
# pattern: a TensorFlow transformer for pedestrian trajectory prediction working on one unbatched trajectory (T, d_model): a masking module builds the look-ahead mask as 1 - band_part(ones, -1, 0), the decoder sizes it from x.shape[0] (the time axis here, though the code calls it batch_size) and passes it to a hand-written multi-head attention that splits heads into (heads, T, depth), divides by sqrt of the keys' last axis and adds mask * -1e9 before the softmax; the cross-attention gets no mask
# why: correct: the mask is 1 on the future and 0 on the past, and mask * -1e9 is added only to the future logits (the TensorFlow-tutorial convention); x.shape[0] is the trajectory length because the model is unbatched; the scale is the per-head depth; float32 throughout; the real layer also reshaped the (heads, T, depth) output to (T, d_model) without moving the heads back, a separate defect the case writes correctly
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/cimat-ris/TF-PathPred https://github.com/cimat-ris/TF-PathPred/commit/d6d38a806dc2fe4e95258e19af2905cbb3da6a43 tools/transformer/decoder.py
import tensorflow as tf

from .attention import MultiHeadedAttention
from .masking import create_look_ahead_mask


class DecoderLayer(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads, rate=0.1):
        super().__init__()
        self.att1 = MultiHeadedAttention(d_model, num_heads)
        self.att2 = MultiHeadedAttention(d_model, num_heads)
        self.norm1 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.norm2 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.drop1 = tf.keras.layers.Dropout(rate)
        self.drop2 = tf.keras.layers.Dropout(rate)

    def call(self, x, enc_output, training, mask):
        a1, _ = self.att1(x, x, x, mask)
        out1 = self.norm1(x + self.drop1(a1, training=training))
        a2, _ = self.att2(enc_output, enc_output, out1, None)
        return self.norm2(out1 + self.drop2(a2, training=training))


class Decoder(tf.keras.layers.Layer):
    def __init__(self, d_model, num_layers, num_heads, pos_encoding, rate=0.1):
        super().__init__()
        self.d_model = d_model
        self.embedding = tf.keras.layers.Dense(d_model)
        self.pos_encoding = pos_encoding
        self.layers_ = [DecoderLayer(d_model, num_heads, rate) for _ in range(num_layers)]

    def call(self, x, enc_output, training):
        batch_size = x.shape[0]  # the trajectory length: inputs are unbatched (T, 2)
        x = self.embedding(x) * tf.math.sqrt(tf.cast(self.d_model, tf.float32))
        x += self.pos_encoding[:batch_size, :]
        mask = create_look_ahead_mask(x.shape[0])
        for layer in self.layers_:
            x = layer(x, enc_output, training, mask)
        return x
