# case: t43cc-05-clean
# modelled-on: imics-lab/recurrence-with-self-attention https://github.com/imics-lab/recurrence-with-self-attention/commit/9834bfea276825a399d082cf050dad1645be9a3f
# label: correct
# class: clean
# pattern: a stand-alone Keras self-attention layer placed after an LSTM that returns sequences (human-activity / fall detection on windows of SEQLENGTH steps): two weight matrices W1 (a, F) and W2 (T, a); scores `tanh(W1 @ H^T)` with H^T made by `Permute((2, 1))`, then `W2 @ scores` gives a (B, T, T) matrix, `Activation('softmax')` over its last axis, and `weights @ H`; no scale factor; the model script (another file) builds LSTM + this layer or a Keras `MultiHeadAttention` encoder without masks
# why: correct: this is the structured self-attention of Lin et al. (an additive tanh scorer, not a dot product of queries and keys), so there is no 1/sqrt(d) to apply and no key matrix to transpose; the Permute turns H (B, T, F) into (B, F, T) so that W1 @ H^T is (B, a, T), and the softmax normalises each of the T output rows over the T input steps that the final `@ H` sums; windows have a fixed length, so no mask is needed
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/imics-lab/recurrence-with-self-attention https://github.com/imics-lab/recurrence-with-self-attention/commit/9834bfea276825a399d082cf050dad1645be9a3f selfAttn.py
import tensorflow as tf
from tensorflow.keras.layers import Activation, Flatten, Layer, Permute


class SequenceSelfAttention(Layer):
    """Self-attention over the time steps of an LSTM's output.

    @param (int) att_len: attention length (rows of W1)
    @param (bool) return_sequences: keep (B, T, F) or flatten it
    """

    def __init__(self, att_len, return_sequences=True):
        self.att_len = att_len
        self.return_sequences = return_sequences
        super(SequenceSelfAttention, self).__init__()

    def build(self, input_shape):
        self.W1 = self.add_weight(name='W1', shape=(self.att_len, input_shape[2]),
                                  initializer='random_uniform', trainable=True)
        self.W2 = self.add_weight(name='W2', shape=(input_shape[1], self.att_len),
                                  initializer='random_uniform', trainable=True)
        super(SequenceSelfAttention, self).build(input_shape)

    def call(self, inputs):
        w1, w2 = self.W1[None, :, :], self.W2[None, :, :]
        hidden_t = Permute(dims=(2, 1))(inputs)
        score = Activation('tanh')(tf.matmul(w1, hidden_t))
        weights = Activation('softmax')(tf.matmul(w2, score))
        context = tf.matmul(weights, inputs)
        if not self.return_sequences:
            context = Flatten()(context)
        return context
