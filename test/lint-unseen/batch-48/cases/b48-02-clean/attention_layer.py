# case: b48-02-clean
# modelled-on: yui-mhcp/text_to_speech https://github.com/yui-mhcp/text_to_speech/commit/5c55bd9d0370aa40833c1a89c2d2d6ee3d18c067
# label: correct
# class: clean
# pattern: a Keras 3 (keras.ops) multi-head attention layer shared by several architectures (a folder: the layer, the mask helpers, and a T5 variant whose configuration turns the layer's scaling off): logits by einsum('bhqd,bhkd->bhqk'), divided by sqrt(depth) only when the `scale` option is on, masked with where(mask, logits, factor), softmax over the last axis; cached keys and values are concatenated in front of the new ones, and the look-ahead mask is built with the cache offset
# why: correct: T5 is trained without the 1/sqrt(d) factor (it is folded into the initialisation), so the T5 configuration sets scale=False on purpose while the other architectures keep the default True; the einsum contracts the head dimension of queries and keys (no transpose needed); the mask is True on the positions to keep and fills the others with a large negative value; with a cache of `offset` keys the look-ahead mask is (new, offset + new) and lets query i see keys up to offset + i (bottom-right aligned)
# looks-like: ATT003, ATT005, ATT007, ATT008
# source: https://github.com/yui-mhcp/text_to_speech https://github.com/yui-mhcp/text_to_speech/commit/5c55bd9d0370aa40833c1a89c2d2d6ee3d18c067 architectures/layers/residual_multi_head_attention.py
import keras
import keras.ops as K


class ResidualHeads(keras.layers.Layer):
    def __init__(self, heads, width, *, scale=True, fill=-1e4, residual=True, name=None):
        super().__init__(name=name)
        assert width % heads == 0
        self.heads, self.width, self.depth = heads, width, width // heads
        self.scale, self.residual = scale, residual
        self.fill = float("-inf") if fill == -1.0 else float(fill)
        self.root = K.sqrt(K.cast(self.depth, "float32")) if scale else None
        self.wq = keras.layers.Dense(width, name="q")
        self.wk = keras.layers.Dense(width, name="k")
        self.wv = keras.layers.Dense(width, name="v")
        self.wo = keras.layers.Dense(width, name="o")

    def _heads(self, x, b):
        x = K.reshape(x, (b, K.shape(x)[1], self.heads, self.depth))
        return K.transpose(x, [0, 2, 1, 3])

    def attend(self, logits, v, mask=None, **_):
        if mask is not None:
            logits = K.where(mask, logits, K.convert_to_tensor(self.fill, logits.dtype))
        weights = K.softmax(logits, axis=-1)
        return K.matmul(weights, v), weights

    def call(self, query, key=None, value=None, mask=None, past=None, return_state=False, **kwargs):
        b = K.shape(query)[0]
        key = query if key is None else key
        value = key if value is None else value
        q = self._heads(self.wq(query), b)
        k = self._heads(self.wk(key), b)
        v = self._heads(self.wv(value), b)
        if past:
            k = K.concatenate([past[0], k], axis=-2)
            v = K.concatenate([past[1], v], axis=-2)

        logits = K.einsum("bhqd,bhkd->bhqk", q, k)
        if self.scale:
            logits = logits / K.cast(self.root, logits.dtype)
        out, weights = self.attend(logits, v, mask=mask, **kwargs)

        out = K.reshape(K.transpose(out, [0, 2, 1, 3]), (b, K.shape(out)[2], self.width))
        out = self.wo(out)
        if self.residual:
            out = out + query
        return (out, (k, v)) if return_state else out
