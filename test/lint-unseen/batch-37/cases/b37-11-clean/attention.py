# case: b37-11-clean
# modelled-on: allenai/deep_qa https://github.com/allenai/deep_qa/commit/48b4340650ec70b801ec93adfdf651bde9c0546e
# label: correct
# class: clean
# pattern: a Keras 2 attention layer for reading comprehension (a folder: the layer, its similarity function and the masking helpers): a vector (batch, dim) is tiled to every row of a matrix (batch, num_rows, dim), a plain dot product (K.sum of the elementwise product over the last axis) gives (batch, num_rows) similarities, and a hand-written masked softmax over axis 1 multiplies scores and shifted scores by the 0/1 row mask, normalises with log(sum(mask * exp(shifted)) + epsilon) and returns zeros where the mask is 0
# why: correct: the masked softmax is a log-sum-exp over the unmasked rows only (masked rows are multiplied out of the normaliser and switched to 0 at the end), so the weights of the real rows sum to one, the documented behaviour, and a fully masked row gives zeros rather than NaN; the mask is 1 on real rows (Keras' mask convention), which is what the multiplication and the where keep; the unscaled dot product is the layer's stated similarity (Luong-style attention of one vector over rows, not scaled dot-product attention)
# looks-like: ATT001, ATT002, ATT003, ATT006
# source: https://github.com/allenai/deep_qa https://github.com/allenai/deep_qa/commit/48b4340650ec70b801ec93adfdf651bde9c0546e deep_qa/layers/attention/attention.py
from keras import backend as K
from keras.layers import Layer

from masking import softmax_over_unmasked
from similarity import DotSimilarity


class VectorMatrixAttention(Layer):
    """Similarity of a vector with each row of a matrix, optionally softmaxed over the rows.

    Inputs: vector (batch_size, embedding_dim), matrix (batch_size, num_rows, embedding_dim)
    with mask (batch_size, num_rows). Output: (batch_size, num_rows).
    """

    def __init__(self, normalize=True, **kwargs):
        self.supports_masking = True
        super(VectorMatrixAttention, self).__init__(**kwargs)
        self.similarity = DotSimilarity(name=self.name + '_similarity')
        self.normalize = normalize

    def build(self, input_shape):
        self.similarity.initialize_weights(input_shape[0][-1], input_shape[1][-1])
        super(VectorMatrixAttention, self).build(input_shape)

    def compute_mask(self, inputs, mask=None):
        if self.normalize or mask is None:
            return None
        return mask[1]

    def compute_output_shape(self, input_shapes):
        return (input_shapes[1][0], input_shapes[1][1])

    def call(self, inputs, mask=None):
        vector, matrix = inputs
        row_mask = None if mask is None else mask[1]
        num_rows = K.int_shape(matrix)[1]
        tiled = K.repeat_elements(K.expand_dims(vector, axis=1), num_rows, axis=1)
        scores = self.similarity.compute_similarity(tiled, matrix)
        if self.normalize:
            return softmax_over_unmasked(scores, row_mask)
        return scores
