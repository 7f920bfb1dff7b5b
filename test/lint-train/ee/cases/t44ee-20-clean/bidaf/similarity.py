from keras import backend as K
from keras.activations import linear
from keras.engine.topology import Layer


class TrilinearSimilarity(Layer):
    def build(self, input_shape):
        d = input_shape[0][-1]
        self.kernel = self.add_weight(name="sim_w", shape=(3 * d, 1), initializer="uniform", trainable=True)
        self.bias = self.add_weight(name="sim_b", shape=(), initializer="ones", trainable=True)
        super().build(input_shape)

    def call(self, inputs):
        context, query = inputs  # (B, T, D), (B, J, D)
        T, J = K.shape(context)[1], K.shape(query)[1]
        c = K.tile(K.expand_dims(context, axis=2), K.concatenate([[1, 1], [J], [1]], 0))
        q = K.tile(K.expand_dims(query, axis=1), K.concatenate([[1], [T], [1, 1]], 0))
        feats = K.concatenate([c, q, c * q], axis=-1)
        return linear(K.squeeze(K.dot(feats, self.kernel), axis=-1) + self.bias)  # (B, T, J)

    def compute_output_shape(self, input_shape):
        return (input_shape[0][0], input_shape[0][1], input_shape[1][1])
