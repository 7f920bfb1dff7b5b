# case: t44ee-20-clean
# modelled-on: ParikhKadam/bidaf-keras https://github.com/ParikhKadam/bidaf-keras/commit/e271cf5444316a60530b6bd36dfd7ea02b0cc1a8
# label: correct
# class: clean
# pattern: BiDAF's attention flow as Keras layers: the similarity layer (another file) tiles context and question vectors to (B, T, J, D), scores `[c; q; c * q]` with one weight vector and returns (B, T, J); context-to-query attention softmaxes that matrix over its last axis (the question words) and sums the expanded question vectors with those weights; query-to-context attention takes the max over the question axis, softmaxes the (B, T) result over the context words (Keras's default axis=-1) and tiles the weighted context vector back over T
# why: correct: each softmax normalises the axis the following weighted sum contracts (question words for C2Q, context words for Q2C), as in the BiDAF paper; the similarity is built by tiling, so no key is transposed; no padding mask is used, which the model's fixed-length inputs allow
# looks-like: ATT001, ATT005
# source: https://github.com/ParikhKadam/bidaf-keras https://github.com/ParikhKadam/bidaf-keras/commit/e271cf5444316a60530b6bd36dfd7ea02b0cc1a8 bidaf/layers/context_to_query.py
from keras import backend as K
from keras.engine.topology import Layer
from keras.layers.advanced_activations import Softmax


class ContextToQuery(Layer):
    def call(self, inputs):
        sim, question = inputs  # (B, T, J), (B, J, D)
        weights = Softmax(axis=-1)(sim)
        question = K.expand_dims(question, axis=1)
        return K.sum(K.expand_dims(weights, axis=-1) * question, -2)

    def compute_output_shape(self, input_shape):
        sim_shape, q_shape = input_shape
        return sim_shape[:-1] + q_shape[-1:]


class QueryToContext(Layer):
    def call(self, inputs):
        sim, context = inputs  # (B, T, J), (B, T, D)
        best = K.max(sim, axis=-1)
        weights = Softmax()(best)  # over the context words
        summary = K.sum(K.expand_dims(weights, axis=-1) * context, -2)
        return K.tile(K.expand_dims(summary, 1), [1, K.shape(context)[1], 1])

    def compute_output_shape(self, input_shape):
        sim_shape, c_shape = input_shape
        return sim_shape[:-1] + c_shape[-1:]
