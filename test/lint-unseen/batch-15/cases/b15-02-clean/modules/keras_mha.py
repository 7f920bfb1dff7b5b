# case: b15-02-clean
# modelled-on: neromehiro/BracketCloser-LLM-b https://github.com/neromehiro/BracketCloser-LLM-b/commit/a7327bc0d69b1e661c1ee620eecd80af1f9827df
# label: correct
# class: clean
# pattern: the same project's MultiHeadAttention subclass one commit earlier: the float keep mask built by the training code (input != 0) is only reshaped to (batch, 1, 1, seq) and handed to the parent layer's attention_mask, which broadcasts it over heads and queries
# why: correct: Keras MultiHeadAttention takes a keep mask (1 = attend, 0 = masked), which is what the training code builds; a float 0/1 mask passed with no == 0, ~ or additive conversion looks like a mask of unknown polarity; this is the version before the later commit that turned it additive (not a fix pair: that commit introduced the defect)
# looks-like: ATT002
# source: https://github.com/neromehiro/BracketCloser-LLM-b https://github.com/neromehiro/BracketCloser-LLM-b/commit/a7327bc0d69b1e661c1ee620eecd80af1f9827df modules/custom_layers.py
import tensorflow as tf
from tensorflow.keras.layers import MultiHeadAttention


class PaddedSelfAttention(MultiHeadAttention):
    """Multi-head attention that takes a per-token padding mask of shape (batch, seq)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)

    def call(self, query, value, key=None, attention_mask=None, return_attention_scores=False, training=None, **kwargs):
        if attention_mask is not None:
            batch = tf.shape(query)[0]
            length = tf.shape(query)[1]
            # (batch, seq) -> (batch, 1, 1, seq): one row broadcast over heads and queries
            attention_mask = tf.reshape(attention_mask, (batch, 1, 1, length))

        return super().call(
            query,
            value,
            key=key,
            attention_mask=attention_mask,
            return_attention_scores=return_attention_scores,
            training=training,
        )
