# case: b63-10-clean
# modelled-on: jlwatson/cs224n-project https://github.com/jlwatson/cs224n-project/commit/463593ea671d0f5286fff260c9dc50c034382586
# label: correct
# class: clean
# pattern: a Keras layer that attends from an RNN's final hidden state over its earlier states (forward, backward or both halves of a bidirectional output): the scores are the per-step dot products `K.sum(prev_states * expand_dims(final_state, 1), axis=2)` (optionally after a learned bilinear map), `K.softmax(scores)` is called without an axis, and the weights are broadcast back with `expand_dims(weights, 2)` and summed over the time axis; the layer returns the final state concatenated with the summary
# why: correct: the scores are 2-D (batch, time - 1), so the softmax's default last axis is the time axis and each sample's weights sum to one over its earlier states; dot-product ("Luong") attention over RNN states carries no 1/sqrt(d) factor in the method it implements; the sequences are fixed-length (the layer slices by position), so no mask is intended
# looks-like: ATT001, ATT003
# source: https://github.com/jlwatson/cs224n-project https://github.com/jlwatson/cs224n-project/commit/463593ea671d0f5286fff260c9dc50c034382586 attention_layer.py
from keras import backend as K
from keras.layers import Layer


class FinalStateAttention(Layer):
    def __init__(self, direction="forward", variant="dot-product", **kwargs):
        if direction not in ("forward", "backward", "bidirectional"):
            raise ValueError("unknown direction %s" % direction)
        self.direction = direction
        self.variant = variant
        super().__init__(**kwargs)

    def build(self, input_shape):
        assert len(input_shape) == 3
        hidden = input_shape[2]
        if self.variant == "multiplicative":
            self.bilinear = self.add_weight(shape=(hidden, hidden), initializer="uniform", name="bilinear")
        super().build(input_shape)

    def _split(self, x, steps, width):
        if self.direction == "forward":
            return x[:, : steps - 1, :], x[:, steps - 1, :]
        if self.direction == "backward":
            return x[:, 1:, :], x[:, 0, :]
        fwd, bwd = x[:, :, : width // 2], x[:, :, width // 2 :]
        earlier = K.concatenate([fwd[:, : steps - 1, :], bwd[:, 1:, :]])
        final = K.concatenate([fwd[:, steps - 1, :], bwd[:, 0, :]])
        return earlier, final

    def call(self, x):
        steps, width = K.shape(x)[1], K.shape(x)[2]
        earlier, final = self._split(x, steps, width)
        if self.variant == "multiplicative":
            earlier = K.dot(earlier, self.bilinear)
        scores = K.sum(earlier * K.expand_dims(final, axis=1), axis=2)  # (batch, steps - 1)
        weights = K.softmax(scores)
        summary = K.sum(K.expand_dims(weights, axis=2) * earlier, axis=1)
        return K.concatenate([final, summary], axis=-1)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], input_shape[2] * 2)
