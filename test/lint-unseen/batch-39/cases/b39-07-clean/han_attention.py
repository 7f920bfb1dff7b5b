# case: b39-07-clean
# modelled-on: lxh5147/cacdi_attention_model https://github.com/lxh5147/cacdi_attention_model/commit/0e7df857e85ad4bcdb5ab48b4d2abc3ae207eb1e
# label: correct
# class: clean
# pattern: hierarchical attention network pooling in Keras 1 (Yang et al. 2016, equations 8-10), a folder: the attention layer and the masking helpers it imports; u_i = tanh(x W + b), a_i = exp(u_i . u_s) computed by hand, then the helper multiplies a_i by the 0/1 Keras mask (real steps = 1), the weights are divided by their sum over the time axis (with a guard that turns an all-zero sum into 1) and the output is the weighted sum of the inputs; the sentence-level mask is derived from the word mask by another helper
# why: correct: exp followed by a division by the masked sum over axis 1 is the softmax of the HAN paper restricted to the real steps, so zeroing the masked exponentials before normalising is how the mask is meant to enter, not a mask applied after a softmax; the Keras mask is 1 on real tokens, which is what the multiplication keeps; the context vector u_s is a learned parameter, so the additive scores take no 1/sqrt(d)
# looks-like: ATT001, ATT002, ATT003, ATT006
# source: https://github.com/lxh5147/cacdi_attention_model https://github.com/lxh5147/cacdi_attention_model/commit/0e7df857e85ad4bcdb5ab48b4d2abc3ae207eb1e attention_layer.py
from keras import backend as K
from keras import initializations
from keras.layers import Layer, time_distributed_dense

from masking import multiply_by_mask


class ContextAttention(Layer):
    """Pools (batch, steps, dim) to (batch, dim) against a learned context vector."""

    def __init__(self, context_dim, init_W="glorot_uniform", init_u="uniform",
                 input_dropout=0., score_dropout=0., **kwargs):
        assert context_dim > 0, "context_dim"
        self.context_dim = context_dim
        self.init_W = initializations.get(init_W)
        self.init_u = initializations.get(init_u)
        self.input_dropout = input_dropout
        self.score_dropout = score_dropout
        self.supports_masking = True
        if input_dropout or score_dropout:
            self.uses_learning_phase = True
        super(ContextAttention, self).__init__(**kwargs)

    def build(self, input_shape):
        assert len(input_shape) == 3, "input_shape"
        in_dim = input_shape[2]
        self.W = self.init_W((in_dim, self.context_dim))
        self.b = K.zeros((self.context_dim,))
        self.u = self.init_u((self.context_dim,))
        self.trainable_weights = [self.W, self.b, self.u]

    def call(self, x, mask=None):
        x = K.dropout(x, level=self.input_dropout)
        hidden = K.tanh(time_distributed_dense(x, self.W, self.b))   # (batch, steps, context_dim)
        hidden = K.dropout(hidden, level=self.score_dropout)

        energy = K.exp(time_distributed_dense(hidden, K.expand_dims(self.u, 1), output_dim=1))  # (batch, steps, 1)
        energy, _ = multiply_by_mask(energy, mask)
        total = K.sum(energy, 1, keepdims=True)
        total += K.cast(K.equal(total, 0), dtype=K.dtype(energy))   # a sample with no step keeps zeros
        alpha = energy / total
        return K.sum(alpha * x, 1)

    def compute_mask(self, x, mask):
        return None

    def get_output_shape_for(self, input_shape):
        return (input_shape[0], input_shape[2])

    def get_config(self):
        config = {"context_dim": self.context_dim, "input_dropout": self.input_dropout,
                  "score_dropout": self.score_dropout}
        base = super(ContextAttention, self).get_config()
        return dict(list(base.items()) + list(config.items()))
