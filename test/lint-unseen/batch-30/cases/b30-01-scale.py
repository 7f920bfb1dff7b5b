# case: b30-01-scale
# modelled-on: sofienealouini/kattention https://github.com/sofienealouini/kattention/commit/7ccc2d1ade6b356cadbfad2f8576c08580359ccd
# label: buggy
# class: real-bug
# pattern: the first version of a small package of Keras attention layers: SelfAttention builds Dense query/key/value projections as wide as the input in build(), forms the scores with a Dot(axes=(2, 2)) layer (queries against keys over the feature axis, so no explicit transpose), normalises them with a Softmax() layer (default axis=-1, the keys) and reweights the values with Dot(axes=(2, 1)); MultiHeadAttention builds several such heads on the whole input and compresses their concatenation with a Dense layer
# why: buggy: the dot-product scores reach the softmax with no 1/sqrt(d) scale, so with wide embeddings the logits are far too large and the softmax saturates; the author later inserts a scaling step between the Dot and the Softmax (commit db6d3d0, "Add scaling ... to context weights in SelfAttention"), which documents that the scores were meant to be scaled (that commit's own factor is another matter). The softmax axis and the Dot axes are right
# source: https://github.com/sofienealouini/kattention https://github.com/sofienealouini/kattention/commit/7ccc2d1ade6b356cadbfad2f8576c08580359ccd kattention/layers/self_attention.py
from tensorflow.keras.layers import Layer, Dense, Dot, Softmax, Concatenate


class SelfAttention(Layer):

    def __init__(self, **kwargs):
        super(SelfAttention, self).__init__(**kwargs)
        self.dot_context = Dot(axes=(2, 2))
        self.normalize = Softmax()
        self.reweight_v = Dot(axes=(2, 1))

    def build(self, input_shape):
        self.embedding_size = input_shape[-1]
        self.dense_q = Dense(units=self.embedding_size, activation='linear')
        self.dense_k = Dense(units=self.embedding_size, activation='linear')
        self.dense_v = Dense(units=self.embedding_size, activation='linear')

    def call(self, inputs, **kwargs):
        queries = self.dense_q(inputs)
        keys = self.dense_k(inputs)
        values = self.dense_v(inputs)
        context_weights = self.dot_context([queries, keys])
        normalized_context_weights = self.normalize(context_weights)  # expect: ATT003
        return self.reweight_v([normalized_context_weights, values])


class MultiHeadAttention(Layer):

    def __init__(self, heads, **kwargs):
        super(MultiHeadAttention, self).__init__(**kwargs)
        self.heads = heads
        self.concat_heads = Concatenate()

    def build(self, input_shape):
        self.embedding_size = input_shape[-1]
        self.attention_heads = [SelfAttention() for _ in range(1, self.heads + 1)]
        self.embed = Dense(units=self.embedding_size, activation='linear')

    def call(self, inputs, **kwargs):
        self_attention_outputs = [att_head(inputs) for att_head in self.attention_heads]
        concatenated_heads = self.concat_heads(self_attention_outputs)
        compressed_embedding = self.embed(concatenated_heads)

        return compressed_embedding
