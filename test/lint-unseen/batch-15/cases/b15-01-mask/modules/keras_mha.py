# case: b15-01-mask
# modelled-on: neromehiro/BracketCloser-LLM-b https://github.com/neromehiro/BracketCloser-LLM-b/commit/4157cac9e5676d7bebe94a5318e52622e5fc8cc7
# label: buggy
# class: real-bug
# pattern: a bracket-completion project trains small Keras models; its training code feeds a float keep mask (input != 0, 1 = real token) as a second model input, and a MultiHeadAttention subclass reshapes that mask to (batch, 1, 1, seq) and, in a commit titled as fixing the layer, turns it into an additive bias with tf.where(mask == 0, -1e9, 0) before handing it to the parent layer's attention_mask
# why: buggy: keras.layers.MultiHeadAttention's attention_mask is a keep mask (1/True = attend, 0/False = masked; the layer casts it to bool or turns 1 - mask into its own large negative bias); the additive form hands it 0 for every real token and -1e9 for every pad, so real tokens are the masked ones (pads become the only positions attended, or, where the mask is used as 1 - mask, every real score is shifted by -1e9 and loses its precision in float32); the previous version (the keep mask passed as it is) was right; no later fix exists, the label rests on the Keras documentation of attention_mask
# source: https://github.com/neromehiro/BracketCloser-LLM-b https://github.com/neromehiro/BracketCloser-LLM-b/commit/4157cac9e5676d7bebe94a5318e52622e5fc8cc7 modules/custom_layers.py
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
            attention_mask = tf.cast(attention_mask, dtype=self.compute_dtype)
            attention_mask = tf.where(attention_mask == 0, -1e9, 0)

        return super().call(
            query,
            value,
            key=key,
            attention_mask=attention_mask,  # expect: ATT002
            return_attention_scores=return_attention_scores,
            training=training,
        )
