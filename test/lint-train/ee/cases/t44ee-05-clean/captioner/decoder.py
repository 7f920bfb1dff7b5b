# case: t44ee-05-clean
# modelled-on: apoorvrajdev/image-captioning-system https://github.com/apoorvrajdev/image-captioning-system/commit/1e721dd2d172e8e32bfeae98de74dca1c4970c8a
# label: correct
# class: clean
# pattern: a Keras captioning decoder: the caller (another file) passes `mask = y_true != 0` (True at real tokens); the decoder makes a lower-triangular int causal mask from `i >= j`, combines it with the key-side padding `mask[:, None, :]` by `tf.minimum`, and gives the query-side padding `mask[:, :, None]` to the cross-attention over image features, both as `attention_mask` of `tf.keras.layers.MultiHeadAttention`
# why: correct for the rule classes: Keras's `attention_mask` is 1 where attention is allowed, which `i >= j` and `!= 0` both are, and the minimum of two keep masks is their intersection; the rows of padded queries that the cross-attention mask empties go through Keras's masked softmax, which fills with a large finite negative number (uniform rows, never read by the masked loss)
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/apoorvrajdev/image-captioning-system https://github.com/apoorvrajdev/image-captioning-system/commit/1e721dd2d172e8e32bfeae98de74dca1c4970c8a src/captioning/models/transformer_decoder.py
import tensorflow as tf


class CaptionDecoderLayer(tf.keras.layers.Layer):
    def __init__(self, embed, units, heads, vocab, embedder, p_attn=0.1):
        super().__init__()
        self.embedder = embedder
        self.self_attn = tf.keras.layers.MultiHeadAttention(num_heads=heads, key_dim=embed, dropout=p_attn)
        self.cross_attn = tf.keras.layers.MultiHeadAttention(num_heads=heads, key_dim=embed, dropout=p_attn)
        self.norm1 = tf.keras.layers.LayerNormalization()
        self.norm2 = tf.keras.layers.LayerNormalization()
        self.norm3 = tf.keras.layers.LayerNormalization()
        self.ff1 = tf.keras.layers.Dense(units, activation="relu")
        self.ff2 = tf.keras.layers.Dense(embed)
        self.proj = tf.keras.layers.Dense(vocab, activation="softmax")
        self.drop = tf.keras.layers.Dropout(0.3)

    def call(self, tokens, image_feats, training, mask=None):
        x = self.embedder(tokens)
        self_mask = None
        cross_mask = None
        if mask is not None:
            causal = self.lower_triangle(x)
            cross_mask = tf.cast(mask[:, :, tf.newaxis], dtype=tf.int32)
            self_mask = tf.cast(mask[:, tf.newaxis, :], dtype=tf.int32)
            self_mask = tf.minimum(self_mask, causal)

        a = self.self_attn(query=x, value=x, key=x, attention_mask=self_mask, training=training)
        h1 = self.norm1(x + a)
        c = self.cross_attn(query=h1, value=image_feats, key=image_feats, attention_mask=cross_mask, training=training)
        h2 = self.norm2(h1 + c)
        f = self.ff2(self.drop(self.ff1(h2), training=training))
        return self.proj(self.norm3(f + h2))

    def lower_triangle(self, x):
        shape = tf.shape(x)
        b, n = shape[0], shape[1]
        rows = tf.range(n)[:, tf.newaxis]
        cols = tf.range(n)
        keep = tf.cast(rows >= cols, dtype="int32")
        keep = tf.reshape(keep, (1, n, n))
        reps = tf.concat([tf.expand_dims(b, -1), tf.constant([1, 1], dtype=tf.int32)], axis=0)
        return tf.tile(keep, reps)
