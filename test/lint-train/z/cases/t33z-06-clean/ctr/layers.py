# case: t33z-06-clean
# modelled-on: neoyinyao/Recommender https://github.com/neoyinyao/Recommender/commit/74e573d436b53cb8c1190506b03efdce5e9adea6
# label: correct
# class: clean
# pattern: TensorFlow 2 click-through-rate models (DIN and DIEN) over a user's behaviour history: the models (another module) take the history mask from an Embedding(mask_zero=True).compute_mask (True = real item, False = padding); DIN's local activation unit scores each history item against the target with an MLP over [t, h, t - h, t * h], multiplies the unnormalised (batch, his_len, 1) scores by the 0/1 mask and pools with matmul(weights, history, transpose_a=True), no softmax; DIEN's attention is a bilinear score matmul(matmul(hidden, W), target, transpose_b=True) of shape (batch, his_len, 1), masked with += (1. - mask) * -1e9 and normalised by tf.nn.softmax over axis=1, and the scores then gate the update gate of an attention GRU cell
# why: correct: DIN deliberately keeps its activation weights unnormalised (the paper drops the softmax to preserve the intensity of user interests), so zeroing the padded items by multiplication is its whole masking; DIEN's scores have the history on axis 1, so softmax(axis=1) normalises over the history, with padded items removed beforehand by the additive -1e9 (float32 here); the bilinear score is unscaled by design
# looks-like: ATT001, ATT002, ATT003, ATT006
# source: https://github.com/neoyinyao/Recommender https://github.com/neoyinyao/Recommender/commit/74e573d436b53cb8c1190506b03efdce5e9adea6 dien/layers.py
import tensorflow as tf
from tensorflow import keras


def masked_history_mean(his_embedding, mask):
    mask = tf.cast(tf.expand_dims(mask, axis=-1), his_embedding.dtype)
    his_embedding *= mask
    return tf.reduce_sum(his_embedding, axis=1) / tf.reduce_sum(mask, axis=1)


class MLP(keras.layers.Layer):
    def __init__(self, units, last_activation):
        super().__init__()
        self.bn = keras.layers.BatchNormalization()
        self.hidden = [keras.layers.Dense(u, activation='relu') for u in units[:-1]]
        self.hidden.append(keras.layers.Dense(units[-1], activation=last_activation))

    def call(self, inputs, training=False):
        x = self.bn(inputs, training=training)
        for layer in self.hidden:
            x = layer(x)
        return x


class LocalActivationUnit(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = keras.layers.Dense(80, activation=tf.nn.sigmoid)
        self.fc2 = keras.layers.Dense(40, activation=tf.nn.sigmoid)
        self.fc3 = keras.layers.Dense(1)

    def call(self, inputs, mask=None):
        target, history = inputs  # (batch, 1, E), (batch, his_len, E)
        target = tf.repeat(target, repeats=[history.shape[1]], axis=1)
        feats = tf.concat([target, history, target - history, target * history], axis=-1)
        weights = self.fc3(self.fc2(self.fc1(feats)))  # (batch, his_len, 1)
        mask = tf.cast(tf.expand_dims(mask, axis=-1), dtype=weights.dtype)
        weights *= mask
        pooled = tf.matmul(weights, history, transpose_a=True)  # (batch, 1, E)
        return tf.squeeze(pooled, axis=1)


class DIENAttention(keras.layers.Layer):
    def build(self, input_shape):
        target_shape, hidden_shape = input_shape
        self.kernel = self.add_weight(shape=(hidden_shape[-1], target_shape[-1]))

    def call(self, inputs, training=False, mask=None):
        target, hidden_state = inputs  # (batch, 1, E), (batch, his_len, H)
        projected = tf.matmul(hidden_state, self.kernel)
        score = tf.matmul(projected, target, transpose_b=True)  # (batch, his_len, 1)
        mask = tf.cast(tf.expand_dims(mask, axis=-1), dtype=score.dtype)
        score += (1. - mask) * -1e9
        return tf.nn.softmax(score, axis=1)


class AUGRUCell(keras.layers.AbstractRNNCell):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.update_gate = keras.layers.Dense(units, activation=tf.nn.sigmoid)
        self.reset_gate = keras.layers.Dense(units, activation=tf.nn.sigmoid)
        self.candidate = keras.layers.Dense(units, activation=tf.nn.tanh)

    @property
    def state_size(self):
        return self.units

    def call(self, inputs, states):
        prev = states[0]
        att = inputs[:, -1:]
        x = inputs[:, :-1]
        both = tf.concat([prev, x], axis=-1)
        u = self.update_gate(both)
        r = self.reset_gate(both)
        h = self.candidate(tf.concat([x, r * prev], axis=-1))
        u *= att
        out = u * h + (1 - u) * prev
        return out, out


class InterestEvolve(keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.rnn = keras.layers.RNN(AUGRUCell(units))

    def call(self, inputs, training=False, mask=None):
        hidden_state, scores = inputs
        return self.rnn(tf.concat([hidden_state, scores], axis=-1), mask=mask)


class InterestExtract(keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.gru = keras.layers.GRU(units=units, return_sequences=True)

    def call(self, inputs, training=False, mask=None):
        return self.gru(inputs, mask=mask)
