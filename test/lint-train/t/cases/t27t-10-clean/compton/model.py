# case: t27t-10-clean
# modelled-on: sathissrcsivaram/compton-set-transformer https://github.com/sathissrcsivaram/compton-set-transformer/commit/da3c2fb8b736a12894fb10b56907a3c9f3c62454
# label: correct
# class: clean
# pattern: a Keras set model locating a gamma-ray source from its Compton events: the data module zero-pads each source's events and sets mask[i, :n_use] = True (optionally also over repeated padding events); an ISAB block lets learned inducing points attend to the events through layers.MultiHeadAttention(attention_mask=tf.tile(mask[:, None, :], [1, m, 1])); attention pooling adds (1.0 - tf.cast(mask, float32))[..., None] * -1e9 to per-event logits [B, T, 1] and takes layers.Softmax(axis=1) over the events
# why: correct: the mask is True at real events (written per example up to its length), Keras' attention_mask keeps the positions where it is True, and the tile gives every inducing point the same key mask; in the pooling 1 - mask is 1 at padding, so -1e9 lands on padded events, in float32; axis=1 is the event axis of the [B, T, 1] logits; every source has at least one event, so no pooling row is fully masked; the second attention (events to inducing points) needs no mask
# looks-like: ATT001, ATT002, ATT007
# source: https://github.com/sathissrcsivaram/compton-set-transformer https://github.com/sathissrcsivaram/compton-set-transformer/commit/da3c2fb8b736a12894fb10b56907a3c9f3c62454 train_compton_set_transformer.py
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

from compton.data import FEATURE_COLS, MAX_EVENTS

HEATMAP_H = HEATMAP_W = 64


class ISAB(layers.Layer):
    def __init__(self, d_model: int, num_heads: int = 4, m: int = 128, dropout: float = 0.1, name=None):
        super().__init__(name=name)
        key_dim = max(16, d_model // max(1, num_heads))
        self.m, self.d = m, d_model
        self.mha1 = layers.MultiHeadAttention(num_heads=num_heads, key_dim=key_dim, dropout=dropout)
        self.mha2 = layers.MultiHeadAttention(num_heads=num_heads, key_dim=key_dim, dropout=dropout)
        self.ffn1 = keras.Sequential([layers.Dense(4 * d_model, activation="gelu"), layers.Dense(d_model)])
        self.ffn2 = keras.Sequential([layers.Dense(4 * d_model, activation="gelu"), layers.Dense(d_model)])
        self.ln = [layers.LayerNormalization() for _ in range(4)]

    def build(self, input_shape):
        self.I = self.add_weight(name="inducing", shape=(1, self.m, self.d), initializer="glorot_uniform")

    def call(self, X, mask=None, training=None):
        # X: [B, T, D], mask: [B, T] bool, True = real event
        I = tf.tile(self.I, [tf.shape(X)[0], 1, 1])  # [B, m, D]
        attn_mask = None
        if mask is not None:
            keep = tf.cast(mask, tf.bool)
            attn_mask = tf.tile(tf.expand_dims(keep, 1), [1, tf.shape(I)[1], 1])  # [B, m, T]
        H = self.mha1(I, X, attention_mask=attn_mask, training=training)  # inducing points read the events
        H = self.ln[0](I + H)
        H = self.ln[1](H + self.ffn1(H, training=training))
        Z = self.mha2(X, H, training=training)  # events read the inducing points (all valid)
        Z = self.ln[2](X + Z)
        return self.ln[3](Z + self.ffn2(Z, training=training))


def build_set_model(max_events: int = MAX_EVENTS, d_model: int = 128) -> keras.Model:
    events_in = keras.Input(shape=(max_events, len(FEATURE_COLS)), name="events")  # [B, T, F]
    mask_in = keras.Input(shape=(max_events,), dtype="bool", name="mask")          # [B, T]

    x = layers.Dense(d_model, activation="gelu")(events_in)
    x = ISAB(d_model, num_heads=4, m=128, name="isab")(x, mask_in)

    a = layers.Dense(64, activation="tanh", name="attn_h")(x)            # [B, T, 64]
    logits = layers.Dense(1, use_bias=False, name="attn_score")(a)      # [B, T, 1]
    mask_f = layers.Lambda(lambda m: tf.cast(m, tf.float32))(mask_in)   # [B, T]
    penalty = layers.Lambda(lambda m: (1.0 - m)[..., None] * -1e9)(mask_f)
    w = layers.Softmax(axis=1, name="attn_softmax")(layers.Add()([logits, penalty]))  # over the events
    pooled = layers.Lambda(lambda args: tf.reduce_sum(args[0] * args[1], axis=1))([w, x])  # [B, D]

    count = layers.Lambda(lambda m: tf.reduce_sum(tf.cast(m, tf.float32), axis=1, keepdims=True) / float(MAX_EVENTS))(mask_in)
    z = layers.Concatenate()([pooled, count])
    z = layers.Dense(128, activation="gelu")(z)
    outputs = layers.Dense(HEATMAP_H * HEATMAP_W, activation="softmax", name="heatmap")(z)
    return keras.Model(inputs={"events": events_in, "mask": mask_in}, outputs=outputs)


def kl_loss(y_true, y_pred):
    eps = 1e-7
    y_true = tf.clip_by_value(y_true, eps, 1.0)
    y_true = y_true / tf.reduce_sum(y_true, axis=-1, keepdims=True)
    y_pred = tf.clip_by_value(y_pred, eps, 1.0)
    return tf.reduce_mean(tf.reduce_sum(y_true * (tf.math.log(y_true) - tf.math.log(y_pred)), axis=-1))
