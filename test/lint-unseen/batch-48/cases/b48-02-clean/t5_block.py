import keras
import keras.ops as K

from attention_layer import ResidualHeads
from masking import decoder_mask

# T5 folds the 1/sqrt(d) factor into its initialisation: the shared layer is built without it
T5_ATTENTION = dict(scale=False, fill=-1e9, residual=False)


class T5Heads(ResidualHeads):
    def attend(self, logits, v, mask=None, position_bias=None, **kwargs):
        if position_bias is not None:
            logits = logits + position_bias
        return super().attend(logits, v, mask=mask, **kwargs)


class T5DecoderStep(keras.layers.Layer):
    def __init__(self, heads, width, buckets=32, **kwargs):
        super().__init__(**kwargs)
        self.attn = T5Heads(heads, width, **T5_ATTENTION)
        self.buckets = buckets
        self.bias_table = self.add_weight(shape=(buckets, heads), name="rel_bias")

    def call(self, hidden, tokens, bucket_ids, past=None):
        past_len = 0 if not past else K.shape(past[0])[-2]
        mask = decoder_mask(tokens, past_len=past_len)
        bias = K.expand_dims(K.transpose(K.take(self.bias_table, bucket_ids, axis=0), [2, 0, 1]), 0)
        return self.attn(hidden, mask=mask, past=past, position_bias=bias, return_state=True)
