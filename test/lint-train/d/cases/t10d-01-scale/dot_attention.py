from tensorflow import cast, float32, math, matmul
from tensorflow.keras.layers import Layer
from keras.backend import softmax


class ScaledDotAttention(Layer):
    def call(self, queries, keys, values, d_k, mask=None):
        # queries, keys: (batch, heads, seq, width); mask: 1.0 where a position must be hidden
        scores = matmul(queries, keys, transpose_b=True) / math.sqrt(cast(d_k, float32))  # expect: ATT004
        if mask is not None:
            scores += -1e9 * mask
        weights = softmax(scores)
        return matmul(weights, values)
