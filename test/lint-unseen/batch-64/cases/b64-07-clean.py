# case: b64-07-clean
# modelled-on: AlexYangLi/DMT https://github.com/AlexYangLi/DMT/commit/bfb69104b49081154171881c4ed75e459090051d
# label: correct
# class: clean
# pattern: Keras query-context attention layers of a text-matching model: additive (tanh(C Wc + q Wq) w) and Luong dot scores over the context steps, normalised by hand as exp(score), multiplied by the Keras padding mask, divided by their sum over the steps plus epsilon, and used to pool the context; the mask arrives from an `Embedding(mask_zero=True)` through `supports_masking`
# why: correct: exp, multiplication by the 0/1 keep mask and division by the masked sum is a softmax over the unmasked steps (the mask is applied before the normalisation, so padded steps get exactly zero weight and the rest sum to one); the scores are (batch, steps) and both the sum and the pooling run over axis 1, the steps; additive and Luong dot attention have no 1/sqrt(d) factor in their papers; Keras's own mask is 1 on real tokens, which is what must be kept
# looks-like: ATT001, ATT002, ATT003, ATT006
# source: https://github.com/AlexYangLi/DMT https://github.com/AlexYangLi/DMT/commit/bfb69104b49081154171881c4ed75e459090051d layers/attention.py
import tensorflow as tf
from tensorflow.keras import backend as K
from tensorflow.keras.layers import Layer


def masked_normalise(energy, keep):
    """Hand-written masked softmax over axis 1 of (batch, steps) energies; keep is 1 on real steps."""
    weights = K.exp(energy)
    if keep is not None:
        weights = weights * K.cast(keep, K.floatx())
    return weights / (K.sum(weights, axis=1, keepdims=True) + K.epsilon())


class QueryAdditiveAttention(Layer):
    def __init__(self, return_weights=False, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.return_weights = return_weights

    def build(self, input_shape):
        (_, _, width), (_, q_width) = input_shape
        init = "orthogonal"
        self.wc = self.add_weight(name="wc", shape=(width, width), initializer=init)
        self.wq = self.add_weight(name="wq", shape=(q_width, width), initializer=init)
        self.w = self.add_weight(name="w", shape=(width, 1), initializer=init)
        super().build(input_shape)

    def call(self, inputs, mask=None):
        context, query = inputs
        keep = None if mask is None else mask[0]
        steps = K.shape(context)[1]
        tiled = K.repeat(query, steps)  # (batch, steps, q_width)
        energy = K.squeeze(K.dot(K.tanh(K.dot(context, self.wc) + K.dot(tiled, self.wq)), self.w), -1)
        alpha = masked_normalise(energy, keep)  # (batch, steps)
        pooled = K.sum(context * K.expand_dims(alpha), axis=1)
        return [pooled, alpha] if self.return_weights else pooled

    def compute_mask(self, inputs, mask=None):
        return None


class QueryDotAttention(Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def call(self, inputs, mask=None):
        context, query = inputs  # (batch, steps, d), (batch, d)
        energy = tf.einsum("bd,btd->bt", query, context)
        alpha = masked_normalise(energy, None if mask is None else mask[0])
        return tf.einsum("bt,btd->bd", alpha, context)

    def compute_mask(self, inputs, mask=None):
        return None


def matching_model(vocab, width=128, max_len=50):
    words = tf.keras.Input((max_len,), dtype="int32")
    topic = tf.keras.Input((width,))
    emb = tf.keras.layers.Embedding(vocab, width, mask_zero=True)(words)
    states = tf.keras.layers.Bidirectional(tf.keras.layers.GRU(width // 2, return_sequences=True))(emb)
    add_vec = QueryAdditiveAttention()([states, topic])
    dot_vec = QueryDotAttention()([states, topic])
    score = tf.keras.layers.Dense(1, activation="sigmoid")(tf.keras.layers.Concatenate()([add_vec, dot_vec]))
    return tf.keras.Model([words, topic], score)
