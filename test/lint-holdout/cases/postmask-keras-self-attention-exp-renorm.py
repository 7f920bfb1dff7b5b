# case: postmask-keras-self-attention-exp-renorm
# modelled-on: CyberZHG/keras-self-attention https://github.com/CyberZHG/keras-self-attention/blob/master/keras_self_attention/seq_self_attention.py
# label: correct
# pattern: Keras sequence self-attention (additive or multiplicative emission, no 1/sqrt(d)): the softmax is written out by hand as exp(e - max), the local-window band and the Keras padding mask are applied by multiplying the exponentials by 0/1, and the result is divided by its own row sum
# why: multiplying exp(e) by a 0/1 mask and then normalising by the masked sum is exactly a masked softmax, so the mask after the "softmax" is renormalised; additive/bilinear attention has no 1/sqrt(d) by design
# looks-like: ATT006, ATT001, ATT003, ATT005
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import backend as K


class SeqSelfAttention(keras.layers.Layer):

    ATTENTION_TYPE_ADD = 'additive'
    ATTENTION_TYPE_MUL = 'multiplicative'

    def __init__(self,
                 units=32,
                 attention_width=None,
                 attention_type=ATTENTION_TYPE_ADD,
                 return_attention=False,
                 history_only=False,
                 use_additive_bias=True,
                 use_attention_bias=True,
                 attention_activation=None,
                 **kwargs):
        super(SeqSelfAttention, self).__init__(**kwargs)
        self.supports_masking = True
        self.units = units
        self.attention_width = attention_width
        self.attention_type = attention_type
        self.return_attention = return_attention
        self.history_only = history_only
        if history_only and attention_width is None:
            self.attention_width = int(1e9)
        self.use_additive_bias = use_additive_bias
        self.use_attention_bias = use_attention_bias
        self.attention_activation = keras.activations.get(attention_activation)

    def build(self, input_shape):
        feature_dim = int(input_shape[2])
        if self.attention_type == SeqSelfAttention.ATTENTION_TYPE_ADD:
            self.Wt = self.add_weight(shape=(feature_dim, self.units), name='{}_Add_Wt'.format(self.name))
            self.Wx = self.add_weight(shape=(feature_dim, self.units), name='{}_Add_Wx'.format(self.name))
            if self.use_additive_bias:
                self.bh = self.add_weight(shape=(self.units,), name='{}_Add_bh'.format(self.name))
            self.Wa = self.add_weight(shape=(self.units, 1), name='{}_Add_Wa'.format(self.name))
        else:
            self.Wa = self.add_weight(shape=(feature_dim, feature_dim), name='{}_Mul_Wa'.format(self.name))
        if self.use_attention_bias:
            self.ba = self.add_weight(shape=(1,), name='{}_ba'.format(self.name))
        super(SeqSelfAttention, self).build(input_shape)

    def call(self, inputs, mask=None, **kwargs):
        input_len = K.shape(inputs)[1]

        if self.attention_type == SeqSelfAttention.ATTENTION_TYPE_ADD:
            e = self._call_additive_emission(inputs)
        elif self.attention_type == SeqSelfAttention.ATTENTION_TYPE_MUL:
            e = self._call_multiplicative_emission(inputs)

        if self.attention_activation is not None:
            e = self.attention_activation(e)
        e = K.exp(e - K.max(e, axis=-1, keepdims=True))
        if self.attention_width is not None:
            if self.history_only:
                lower = K.arange(0, input_len) - (self.attention_width - 1)
            else:
                lower = K.arange(0, input_len) - self.attention_width // 2
            lower = K.expand_dims(lower, axis=-1)
            upper = lower + self.attention_width
            indices = K.expand_dims(K.arange(0, input_len), axis=0)
            e = e * K.cast(lower <= indices, K.floatx()) * K.cast(indices < upper, K.floatx())
        if mask is not None:
            mask = K.cast(mask, K.floatx())
            mask = K.expand_dims(mask)
            e = K.permute_dimensions(K.permute_dimensions(e * mask, (0, 2, 1)) * mask, (0, 2, 1))

        # a_{t} = \text{softmax}(e_t)
        s = K.sum(e, axis=-1, keepdims=True)
        a = e / (s + K.epsilon())

        # l_t = \sum_{t'} a_{t, t'} x_{t'}
        v = K.batch_dot(a, inputs)

        if self.return_attention:
            return [v, a]
        return v

    def _call_additive_emission(self, inputs):
        input_shape = K.shape(inputs)
        batch_size, input_len = input_shape[0], input_shape[1]

        # h_{t, t'} = \tanh(x_t^T W_t + x_{t'}^T W_x + b_h)
        q = K.expand_dims(K.dot(inputs, self.Wt), 2)
        k = K.expand_dims(K.dot(inputs, self.Wx), 1)
        if self.use_additive_bias:
            h = K.tanh(q + k + self.bh)
        else:
            h = K.tanh(q + k)

        # e_{t, t'} = W_a h_{t, t'} + b_a
        if self.use_attention_bias:
            e = K.reshape(K.dot(h, self.Wa) + self.ba, (batch_size, input_len, input_len))
        else:
            e = K.reshape(K.dot(h, self.Wa), (batch_size, input_len, input_len))
        return e

    def _call_multiplicative_emission(self, inputs):
        # e_{t, t'} = x_t^T W_a x_{t'} + b_a
        e = K.batch_dot(K.dot(inputs, self.Wa), K.permute_dimensions(inputs, (0, 2, 1)))
        if self.use_attention_bias:
            e += self.ba[0]
        return e

    def compute_mask(self, inputs, mask=None):
        if self.return_attention:
            return [mask, None]
        return mask
