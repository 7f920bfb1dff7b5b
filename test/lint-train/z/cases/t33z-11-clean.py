# case: t33z-11-clean
# modelled-on: neoyinyao/Recommender https://github.com/neoyinyao/Recommender/commit/907779af3f1d8da3f06930738427d7656fba6a26
# label: correct
# class: clean
# pattern: the pairwise feature interaction of a DLRM click-through-rate model in TensorFlow 2: the dense features' bottom-MLP output and the categorical embeddings are stacked to (batch, features, dim), their Gram matrix is tf.matmul(x, x, transpose_b=True) with no scale, a triangle of ones is cut with tf.linalg.band_part (with or without the diagonal), and the entries outside it are either zeroed with tf.where(cond, gram, tf.zeros_like(gram)) and flattened, or dropped with tf.boolean_mask; the result is concatenated with the dense output and fed to the top MLP; no softmax anywhere
# why: correct: this is not attention: the Gram matrix holds the pairwise dot products that DLRM feeds to its top MLP, so it needs no 1/sqrt(d) and no normalisation, and the triangle keeps each unordered feature pair once (with the diagonal when self-interaction is on); zeroing the other half with tf.where is a selection of the features to keep, not a mask of scores before a softmax
# looks-like: ATT003, ATT007
# source: https://github.com/neoyinyao/Recommender https://github.com/neoyinyao/Recommender/commit/907779af3f1d8da3f06930738427d7656fba6a26 ctr/layers.py
import tensorflow as tf
from tensorflow import keras


class MLP(keras.layers.Layer):
    def __init__(self, units, final_activation=None):
        super().__init__()
        self.stack = [keras.layers.Dense(u, activation='relu') for u in units[:-1]]
        self.stack.append(keras.layers.Dense(units[-1], activation=final_activation))

    def call(self, x):
        for layer in self.stack:
            x = layer(x)
        return x


class PairwiseInteraction(keras.layers.Layer):
    def __init__(self, self_interaction=False, skip_gather=False):
        super().__init__()
        self.self_interaction = self_interaction
        self.skip_gather = skip_gather

    def call(self, inputs):
        # inputs: (batch, features, dim)
        n = tf.shape(inputs)[1]
        gram = tf.matmul(inputs, inputs, transpose_b=True)  # (batch, features, features)
        ones = tf.ones_like(gram)
        if self.self_interaction:
            lower = tf.linalg.band_part(ones, -1, 0)
            keep = ones - lower + tf.linalg.band_part(ones, 0, 0)
            out_size = n * (n + 1) // 2
        else:
            lower = tf.linalg.band_part(ones, -1, 0)
            keep = ones - lower
            out_size = n * (n - 1) // 2
        cond = tf.cast(keep, tf.bool)
        if self.skip_gather:
            pairs = tf.where(cond, gram, tf.zeros_like(gram))
            return tf.reshape(pairs, (-1, n * n))
        pairs = tf.boolean_mask(gram, cond)
        return tf.reshape(pairs, (-1, out_size))


class DLRM(keras.Model):
    def __init__(self, vocab_sizes, dim=16, bottom=(64, 16), top=(64, 1)):
        super().__init__()
        self.embeddings = [keras.layers.Embedding(v, dim) for v in vocab_sizes]
        self.bottom = MLP(list(bottom))
        self.interact = PairwiseInteraction()
        self.top = MLP(list(top), final_activation='sigmoid')

    def call(self, inputs):
        dense, sparse = inputs  # (batch, n_dense), (batch, n_sparse) ids
        d = self.bottom(dense)
        feats = [d] + [emb(sparse[:, i]) for i, emb in enumerate(self.embeddings)]
        stacked = tf.stack(feats, axis=1)
        return self.top(tf.concat([d, self.interact(stacked)], axis=-1))
