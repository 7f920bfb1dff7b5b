# case: softmax-matchzoo-keras-dense1-axis1
# modelled-on: NTMC-Community/MatchZoo https://github.com/NTMC-Community/MatchZoo/pull/635
# label: correct
# pattern: Keras DRMM-TKS: term-gating attention over query tokens; Dense(1) gives [B, L, 1] scores, an additive mask from an HF-style keep mask ((1.0 - m) * -10000.0, m from not_equal(query, pad) expanded to [B, L, 1]) is added in a Lambda, and softmax(x, axis=1) runs in another Lambda
# why: the length-1 axis is the last one; axis=1 is the L query tokens, which is what the term gating normalises over (the PR fixed the mask, which was reduced with any(..., keepdims=True) to [B, 1, 1])
# looks-like: ATT001, ATT002
import keras
import keras.backend as K
import tensorflow as tf


class DRMMTKS:
    def __init__(self, vocab_size: int, embed_dim: int, top_k: int = 10, mask_value: int = 0):
        self.vocab_size = vocab_size
        self.embed_dim = embed_dim
        self.top_k = top_k
        self.mask_value = mask_value

    def build(self, query_len: int, doc_len: int):
        query = keras.layers.Input(shape=(query_len,), name="text_left")  # [B, L]
        doc = keras.layers.Input(shape=(doc_len,), name="text_right")  # [B, R]
        embedding = keras.layers.Embedding(self.vocab_size, self.embed_dim)
        embed_query = embedding(query)  # [B, L, D]
        embed_doc = embedding(doc)  # [B, R, D]
        # [B, L, 1]: 1.0 for real query tokens
        atten_mask = K.not_equal(query, self.mask_value)
        atten_mask = K.cast(atten_mask, K.floatx())
        atten_mask = K.expand_dims(atten_mask, axis=2)
        attention_probs = self.attention_layer(embed_query, atten_mask)  # [B, L, 1]
        matching = keras.layers.Dot(axes=[2, 2], normalize=True)([embed_query, embed_doc])  # [B, L, R]
        topk = keras.layers.Lambda(lambda x: tf.nn.top_k(x, k=self.top_k, sorted=True)[0])(matching)
        dense_output = keras.layers.Dense(1)(keras.layers.Dense(5, activation="tanh")(topk))  # [B, L, 1]
        dot_score = keras.layers.Dot(axes=[1, 1])([attention_probs, dense_output])  # [B, 1, 1]
        out = keras.layers.Dense(1)(keras.layers.Flatten()(dot_score))
        return keras.Model(inputs=[query, doc], outputs=out)

    @classmethod
    def attention_layer(cls, attention_input, attention_mask=None):
        # [B, L, 1]
        dense_input = keras.layers.Dense(1, use_bias=False)(attention_input)
        if attention_mask is not None:
            dense_input = keras.layers.Lambda(
                lambda x: x + (1.0 - attention_mask) * -10000.0, name="attention_mask"
            )(dense_input)
        return keras.layers.Lambda(
            lambda x: keras.activations.softmax(x, axis=1), name="attention_probs"
        )(dense_input)
