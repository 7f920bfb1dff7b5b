# case: b35-10-clean
# modelled-on: shenweichen/DeepMatch https://github.com/shenweichen/DeepMatch/commit/fd74417629b19ba4518add93d05cafa551ac7c09
# label: correct
# class: clean
# pattern: the self-attentive multi-interest extractor of a ComiRec (KDD 2020) recall model in tf.keras: a two-layer tanh DNN scores every history item for k_max interests, giving (batch, seq_len, k_max); a Lambda transposes the scores to (batch, k_max, seq_len), fills the padded history items with -2 ** 32 + 1 through tf.where with a (batch, k_max, seq_len) sequence mask, applies tf.nn.softmax with no axis (the comments still say [batch_size, seq_len, num_interests]) and multiplies by the history embeddings; a label-aware attention then weights the k_max interest vectors by (interest . target) ** p with a softmax over axis 1, or takes the argmax interest when p >= 100
# why: correct: after the transpose the last axis is the history axis, so the softmax normalises each interest's weights over the items (the stale comments describe the layout before the transpose), and the sequence mask tiled to (batch, k_max, seq_len) keeps exactly the real items; the product (batch, k_max, seq_len) x (batch, seq_len, dim) gives one vector per interest; in the label-aware attention axis 1 of (batch, k_max, 1) is the interest axis, which is what is normalised there; the exponent p sharpens the distribution on purpose and is not a scale of dot products
# looks-like: ATT001, ATT002, ATT003, ATT005, ATT007
# source: https://github.com/shenweichen/DeepMatch https://github.com/shenweichen/DeepMatch/commit/fd74417629b19ba4518add93d05cafa551ac7c09 deepmatch/models/comirec.py (with deepmatch/layers/core.py)
import tensorflow as tf
from tensorflow.keras.layers import Dense, Lambda, Layer

NEG = -2 ** 32 + 1


def tile_history_mask(hist_len, seq_max_len, k_max):
    # hist_len: (batch, 1) -> (batch, k_max, seq_max_len), True on the real history items
    return tf.tile(tf.sequence_mask(hist_len, seq_max_len), [1, k_max, 1])


def interest_pooling(inputs):
    history, mask, scores = inputs
    scores = tf.transpose(scores, [0, 2, 1])
    pad = tf.ones_like(mask, dtype=tf.float32) * NEG
    scores = tf.where(mask, scores, pad)  # [batch_size, seq_len, num_interests]
    scores = tf.nn.softmax(scores)  # [batch_size, seq_len, num_interests]
    return tf.matmul(scores, history)


class LabelAwareAttention(Layer):
    def __init__(self, k_max, pow_p=1, **kwargs):
        super().__init__(**kwargs)
        self.k_max, self.pow_p = k_max, pow_p

    def call(self, inputs):
        interests, target = inputs  # (batch, k_max, dim), (batch, 1, dim)
        weight = tf.reduce_sum(interests * target, axis=-1, keepdims=True)
        weight = tf.pow(weight, self.pow_p)  # [batch, k_max, 1]
        if self.pow_p >= 100:
            best = tf.squeeze(tf.argmax(weight, axis=1, output_type=tf.int32), axis=1)
            return tf.gather_nd(interests, tf.stack([tf.range(tf.shape(interests)[0]), best], axis=1))
        weight = tf.nn.softmax(weight, axis=1, name="weight")
        return tf.reduce_sum(interests * weight, axis=1)


def self_attentive_interests(history_emb, hist_len, emb_dim, seq_max_len, k_max=2):
    """history_emb: (batch, seq_max_len, emb_dim) with positions added; hist_len: (batch, 1)."""
    hidden = Dense(emb_dim * 4, activation="tanh", name="interest_hidden")(history_emb)
    scores = Dense(k_max, activation=None, name="interest_scores")(hidden)  # (batch, seq_len, k_max)
    mask = Lambda(tile_history_mask, arguments={"k_max": k_max, "seq_max_len": seq_max_len})(hist_len)
    return Lambda(interest_pooling)((history_emb, mask, scores))  # (batch, k_max, emb_dim)


def user_vector(history_emb, hist_len, target_emb, emb_dim, seq_max_len, k_max=2, p=100):
    interests = self_attentive_interests(history_emb, hist_len, emb_dim, seq_max_len, k_max)
    return LabelAwareAttention(k_max=k_max, pow_p=p)((interests, target_emb))
