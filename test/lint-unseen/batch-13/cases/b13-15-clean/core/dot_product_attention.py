# case: b13-15-clean
# modelled-on: erelcan/keras-transformer https://github.com/erelcan/keras-transformer/commit/ae88985dd4f1b5f91737e80c7e9c3157b60b4c4f
# label: correct
# class: clean
# pattern: a Keras (2.x backend API) dot-product attention layer that receives Keras-propagated 0/1 keep masks for queries, keys and values: scores are K.batch_dot(queries, keys, axes=2) / sqrt of the query feature width (heads already folded into the batch); the query-key padding mask is the outer product of the query and key masks, multiplied by a left-context (lower-triangular 0/1, built in another module) mask for the decoder, and turned additive as (1 - mask) * -1e9 before K.softmax; the padded values are also zeroed by multiplying them with the value mask
# why: correct: all masks use 1 = keep, so (1 - keep) * -1e9 puts -1e9 exactly on padded or future keys and 0 elsewhere; batch_dot over axis 2 of both (b, t, f) tensors contracts the feature axes without an explicit transpose; K.softmax's default axis is the last (key) axis; zeroing padded value rows changes nothing for real queries (those keys already have ~0 weight) and only cleans up fully padded query rows; what a naive linter could misread: ATT003 (an unscaled branch the layer offers as an option, should_scale=False, off by default), ATT002 (1 - keep mask, a product of masks), ATT006 (a mask multiplied into the values after the softmax), ATT007 (-1e9 as an additive factor), ATT005 (batch_dot with axes=2 instead of a transpose), ATT001 (softmax without an axis)
# looks-like: ATT001, ATT002, ATT003, ATT005, ATT006, ATT007
# source: https://github.com/erelcan/keras-transformer https://github.com/erelcan/keras-transformer/commit/ae88985dd4f1b5f91737e80c7e9c3157b60b4c4f keras_transformer/keras_transformer/core/attention/DotProductAttention.py
from keras import backend as K
from keras.layers import Layer

from core.context import left_context_mask


class DotProductAttention(Layer):
    def __init__(self, causal: bool = False, should_scale: bool = True, **kwargs):
        super().__init__(**kwargs)
        self._causal = causal
        self._should_scale = should_scale

    def call(self, inputs, mask=None, **kwargs):
        queries, keys, values = inputs  # (batch * heads, t, f)
        mask_q, mask_k, mask_v = mask if mask is not None else (None, None, None)

        if self._should_scale:
            scaler = K.sqrt(K.cast(K.shape(queries)[-1], dtype=K.floatx()))
            logits = K.batch_dot(queries, keys, axes=2) / scaler
        else:
            logits = K.batch_dot(queries, keys, axes=2)

        keep = None
        if self._causal:
            keep = left_context_mask(queries.shape[1], keys.shape[1])
        if mask_q is not None and mask_k is not None:
            padding = K.batch_dot(K.expand_dims(mask_q, axis=-1), K.expand_dims(mask_k, axis=1))
            keep = padding if keep is None else padding * keep
        if keep is not None:
            logits += (1 - keep) * -1e9

        weights = K.softmax(logits)
        if mask_v is not None:
            values *= K.tile(K.expand_dims(mask_v), (1, 1, K.shape(values)[-1]))
        return K.batch_dot(weights, values)

    def compute_mask(self, inputs, mask=None):
        return None if mask is None else mask[0]
