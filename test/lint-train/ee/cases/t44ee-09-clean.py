# case: t44ee-09-clean
# modelled-on: LionQYW/Dien----Deep-Interest-Evolution-Network-for-Click-Through-Rate-Prediction https://github.com/LionQYW/Dien----Deep-Interest-Evolution-Network-for-Click-Through-Rate-Prediction/commit/7abce0aab41f00ae902a736bf2a12bd6e9176fd2
# label: correct
# class: clean
# pattern: the target attention of a DIEN click-through-rate model in TensorFlow 2 / Keras: an MLP scores every history step against the target item, giving (batch, length) logits; the history mask `not_equal(ids, pad)` (True at real steps) is turned into "not kept" by comparing it with a tensor of True (`not_equal(mask, ones_like(mask))`), cast to float32, multiplied by -1e9 and added before a softmax over the last axis; the weights then drive an attention-updated GRU
# why: correct: comparing the keep mask with all-True gives True exactly at padding, so -1e9 lands on the padded history steps; the additive mask is made in float32 from a boolean cast (no half precision anywhere), and each row keeps its real steps
# looks-like: ATT002, ATT007
# source: https://github.com/LionQYW/Dien----Deep-Interest-Evolution-Network-for-Click-Through-Rate-Prediction https://github.com/LionQYW/Dien----Deep-Interest-Evolution-Network-for-Click-Through-Rate-Prediction/commit/7abce0aab41f00ae902a736bf2a12bd6e9176fd2 model.py
import tensorflow as tf
from tensorflow.keras.layers import Dense, Dropout, Layer, PReLU


class TargetAttention(Layer):
    def __init__(self, units_1=80, units_2=40, proj=32, rate=0.1):
        super().__init__()
        self.p_target = Dense(proj)
        self.a_target = PReLU(shared_axes=[0, 1])
        self.p_seq = Dense(proj)
        self.a_seq = PReLU(shared_axes=[0, 1])
        self.h1 = Dense(units=units_1, activation="sigmoid")
        self.d1 = Dropout(rate)
        self.h2 = Dense(units=units_2, activation="sigmoid")
        self.d2 = Dropout(rate)
        self.score = Dense(units=1)

    def call(self, target, history, mask, training=None):
        if training is None:
            raise ValueError("training must be given")
        t = self.a_target(self.p_target(target))  # [B, E]
        h = self.a_seq(self.p_seq(history))  # [B, L, E]
        n = tf.shape(h)[1]
        t = tf.reshape(tf.tile(t, multiples=[1, n]), tf.shape(h))
        feats = tf.concat([t, h, t - h, t * h], axis=-1)
        x = self.d1(self.h1(feats), training=training)
        x = self.d2(self.h2(x), training=training)
        logits = tf.squeeze(self.score(x), axis=-1)  # [B, L]

        everything = tf.ones_like(mask, dtype=tf.bool)
        hidden = tf.not_equal(mask, everything)
        hidden = tf.cast(hidden, tf.float32) * -1e9
        logits += hidden
        return tf.nn.softmax(logits)


class InterestLayer(Layer):
    def __init__(self, gru, attn):
        super().__init__()
        self.gru = gru
        self.attn = attn

    def call(self, history, target, ids, pad, training=None):
        mask = tf.not_equal(ids, pad)
        states = self.gru(history, mask=mask, training=training)
        alphas = self.attn(target, states, mask=mask, training=training)
        return alphas
