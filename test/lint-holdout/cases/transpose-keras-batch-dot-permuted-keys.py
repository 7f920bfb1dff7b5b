# case: transpose-keras-batch-dot-permuted-keys
# modelled-on: MarcBS/keras https://github.com/MarcBS/keras/issues/60
# label: correct
# pattern: Keras 2 fork used for NMT: heads are stacked on the batch axis by slicing and concatenating, scores are K.batch_dot(queries_, K.permute_dimensions(keys_, (0, 2, 1)), axes=[2, 1]), padded keys are replaced through K.switch with -2**32 + 1, and after the softmax the weights of padded query rows are multiplied by a 0/1 query mask
# why: permuting keys to (N*h, d, T_k) and contracting axis 2 of queries with axis 1 of keys is Q K^T (the batch_dot(q, k, axes=[2, 2]) is the same product); the post-softmax multiplication only zeroes whole padded query rows, which are never read; the fill is float32
# looks-like: ATT005, ATT006, ATT007
from __future__ import absolute_import

from keras import backend as K
from keras import activations, initializers, regularizers, constraints
from keras.engine import Layer


class MultiHeadAttention(Layer):
    """Multi-head attention layer (Vaswani et al., 2017).

    # Arguments
        n_heads: Number of attention layers that represent the linear projections.
        dmodel: model size
    """

    def __init__(self, n_heads,
                 dmodel,
                 mask_future=False,
                 activation='linear',
                 kernel_initializer='glorot_uniform',
                 **kwargs):
        super(MultiHeadAttention, self).__init__(**kwargs)
        self.supports_masking = True
        assert dmodel % n_heads == 0, 'dmodel should be a multiple of the head number'
        self.n_heads = n_heads
        self.dmodel = dmodel
        self.dk = dmodel // n_heads
        self.dv = dmodel // n_heads
        self.activation = activations.get(activation)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.mask_future = mask_future

    def build(self, input_shape):
        assert len(input_shape) == 2, 'You should pass two inputs: queries and keys.'
        query_dim = input_shape[0][2]
        key_dim = input_shape[1][2]
        self.linear_q = self.add_weight(shape=(query_dim, self.dk * self.n_heads),
                                        initializer=self.kernel_initializer, name='linear_q')
        self.linear_k = self.add_weight(shape=(key_dim, self.dk * self.n_heads),
                                        initializer=self.kernel_initializer, name='linear_k')
        self.linear_v = self.add_weight(shape=(key_dim, self.dv * self.n_heads),
                                        initializer=self.kernel_initializer, name='linear_v')
        self.linear_o = self.add_weight(shape=(self.dv * self.n_heads, self.dmodel),
                                        initializer=self.kernel_initializer, name='linear_o')
        self.built = True

    def call(self, inputs, mask=None, training=None):
        query = inputs[0]
        key = inputs[1]

        # Do linear projections. Shapes: batch_size, timesteps, dmodel*n_heads
        queries, keys, values = [self.activation(K.dot(x, l))
                                 for l, x in zip([self.linear_q, self.linear_k, self.linear_v], (query, key, key))]

        queries_ = K.concatenate([queries[:, :, i * self.dk: (i + 1) * self.dk] for i in range(self.n_heads)], axis=0)
        keys_ = K.concatenate([keys[:, :, i * self.dk: (i + 1) * self.dk] for i in range(self.n_heads)], axis=0)
        values_ = K.concatenate([values[:, :, i * self.dv: (i + 1) * self.dv] for i in range(self.n_heads)], axis=0)

        # Scaled-Dot-Product Attention
        matmul = K.batch_dot(queries_, K.permute_dimensions(keys_, (0, 2, 1)), axes=[2, 1])
        scale = K.sqrt(K.cast(self.dk, K.floatx()))
        attended_heads = matmul / scale

        # Key Masking
        key_masks = K.sign(K.abs(K.sum(key, axis=-1)))
        key_masks = K.tile(key_masks, [self.n_heads, 1])
        key_masks = K.tile(K.expand_dims(key_masks, 1), [1, K.shape(query)[1], 1])
        paddings = K.ones_like(attended_heads) * K.variable(-2 ** 32 + 1, dtype=K.floatx())
        attended_heads = K.switch(K.equal(key_masks, 0), paddings, attended_heads)

        if self.mask_future:
            diag_vals = K.ones_like(attended_heads[0, :, :])
            tril = K.tf.linalg.band_part(diag_vals, -1, 0)
            future_masks = K.tile(K.expand_dims(tril, 0), [K.shape(attended_heads)[0], 1, 1])
            paddings = K.ones_like(future_masks) * K.variable(-2 ** 32 + 1, dtype=K.floatx())
            attended_heads = K.switch(K.equal(future_masks, 0), paddings, attended_heads)

        # Activation (softmax over the keys)
        alphas = K.softmax(attended_heads, axis=-1)

        # Query Masking
        query_masks = K.sign(K.abs(K.sum(query, axis=-1)))
        query_masks = K.tile(query_masks, [self.n_heads, 1])
        query_masks = K.tile(K.expand_dims(query_masks, -1), [1, 1, K.shape(key)[1]])
        attended_heads = alphas * query_masks

        # Matmul with V
        attended_heads = K.batch_dot(attended_heads, values_, axes=[2, 1])

        # Restore shape
        nb_samples = K.shape(attended_heads)[0] // self.n_heads
        attended_heads = K.concatenate([attended_heads[i * nb_samples: (i + 1) * nb_samples, :, :]
                                        for i in range(self.n_heads)], axis=2)

        return self.activation(K.dot(attended_heads, self.linear_o))

    def compute_output_shape(self, input_shape):
        output_shape = list(input_shape[0])
        output_shape[-1] = self.dmodel
        return tuple(output_shape)
