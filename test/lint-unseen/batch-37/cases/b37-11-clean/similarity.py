from keras import backend as K


class DotSimilarity(object):
    """Plain dot product between each pair of vectors; no parameters."""

    def __init__(self, name=None):
        self.name = name

    def initialize_weights(self, dim_1, dim_2):
        if dim_1 != dim_2:
            raise ValueError('dot product similarity needs equal dims, got %d and %d' % (dim_1, dim_2))
        return []

    def compute_similarity(self, tensor_1, tensor_2):
        return K.sum(tensor_1 * tensor_2, axis=-1)
