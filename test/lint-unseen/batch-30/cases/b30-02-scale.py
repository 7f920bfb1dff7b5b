# case: b30-02-scale
# modelled-on: sofienealouini/kattention https://github.com/sofienealouini/kattention/commit/db6d3d02e10e308b3a73722ed82ce68a914e7110
# label: buggy
# class: real-bug
# pattern: the same Keras attention package after its scaling commit, with the Transformer block it then added: SelfAttention computes scaling_factor = 1 / embedding_size in build() and wraps it in a Lambda layer applied to the Dot(axes=(2, 2)) scores before the Softmax() layer; MultiHeadAttention concatenates full-width heads; Transformer adds residuals, LayerNormalization and a Dense layer around it
# why: buggy: the scores are multiplied by 1/d (d = embedding_size, the width the Dot sums over) instead of the 1/sqrt(d) of the Transformer's scaled dot-product attention that the package's Transformer layer implements (Attention Is All You Need, section 3.2.1); with the README's 300-wide embeddings the logits are about 17 times too small and the weights come out nearly uniform. Nothing in the package asks for a 1/d (muP-style) parametrisation. The expectation sits where the scale is applied to the scores
# source: https://github.com/sofienealouini/kattention https://github.com/sofienealouini/kattention/commit/db6d3d02e10e308b3a73722ed82ce68a914e7110 kattention/layers/self_attention.py
from tensorflow.keras.layers import Layer, Dense, Dot, Softmax, Concatenate, Add, LayerNormalization
from tensorflow.python.keras.layers import Lambda


class SelfAttention(Layer):

    def __init__(self, **kwargs):
        super(SelfAttention, self).__init__(**kwargs)
        self.dense_q = None
        self.dense_k = None
        self.dense_v = None
        self.dot_context = Dot(axes=(2, 2))
        self.scale = None
        self.normalize = Softmax()
        self.reweight_v = Dot(axes=(2, 1))

    def build(self, input_shape):
        embedding_size = input_shape[-1]
        self.dense_q = Dense(units=embedding_size, activation='linear')
        self.dense_k = Dense(units=embedding_size, activation='linear')
        self.dense_v = Dense(units=embedding_size, activation='linear')
        scaling_factor = 1 / embedding_size
        self.scale = Lambda(lambda x: x * scaling_factor)

    def call(self, inputs, **kwargs):
        queries = self.dense_q(inputs)
        keys = self.dense_k(inputs)
        values = self.dense_v(inputs)
        context_weights = self.dot_context([queries, keys])
        scaled_context_weights = self.scale(context_weights)  # expect: ATT004
        normalized_context_weights = self.normalize(scaled_context_weights)
        return self.reweight_v([normalized_context_weights, values])


class MultiHeadAttention(Layer):

    def __init__(self, heads, **kwargs):
        super(MultiHeadAttention, self).__init__(**kwargs)
        self.heads = heads
        self.attention_heads = [SelfAttention() for _ in range(self.heads)]
        self.concat_heads = Concatenate()
        self.embed = None

    def build(self, input_shape):
        embedding_size = input_shape[-1]
        self.embed = Dense(units=embedding_size, activation='linear')

    def call(self, inputs, **kwargs):
        self_attention_outputs = [attention_head(inputs) for attention_head in self.attention_heads]
        concatenated_heads = self.concat_heads(self_attention_outputs)
        return self.embed(concatenated_heads)


class Transformer(Layer):

    def __init__(self, attention_heads, **kwargs):
        super(Transformer, self).__init__(**kwargs)
        self.attention_heads = attention_heads
        self.attend = MultiHeadAttention(heads=self.attention_heads)
        self.add_1 = Add()
        self.normalize_1 = LayerNormalization()
        self.dense = None
        self.add_2 = Add()
        self.normalize_2 = LayerNormalization()

    def build(self, input_shape):
        embedding_size = input_shape[-1]
        self.dense = Dense(units=embedding_size, activation='linear')

    def call(self, inputs, **kwargs):
        inputs_with_attention = self.attend(inputs)
        inputs_with_attention_and_residual = self.add_1([inputs_with_attention, inputs])
        normalized_embeddings_with_attention = self.normalize_1(inputs_with_attention_and_residual)
        new_embeddings = self.dense(normalized_embeddings_with_attention)
        new_embeddings_with_residual = self.add_2([normalized_embeddings_with_attention, new_embeddings])
        return self.normalize_2(new_embeddings_with_residual)
