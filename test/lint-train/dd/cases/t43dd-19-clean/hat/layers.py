# case: t43dd-19-clean
# modelled-on: goodatlas/hierarchical-attention-transformer https://github.com/goodatlas/hierarchical-attention-transformer/commit/1dd5877a8af173456b4b37f464264741440cbccb
# label: correct
# class: clean
# pattern: TensorFlow 2 Keras multi-head attention for a hierarchical attention transformer: `matmul(q, k, transpose_b=True) / sqrt(depth)`, an ADDITIVE mask `logits += mask * -1e9`, softmax over axis=-1; the masks come from another module: a padding mask `cast(equal(ids, 0), float)` (1.0 on PAD) with shape (batch, 1, 1, seq), a look-ahead mask `1 - band_part(ones, -1, 0)` (1.0 above the diagonal) and their `tf.maximum` for the decoder self-attention
# why: correct: both masks are 1.0 exactly where attention is NOT allowed (padding keys, future keys), so `mask * -1e9` pushes those logits down and leaves the allowed ones unchanged; the maximum of the two 0/1 masks is their union; the diagonal is never masked, so no decoder row is empty; the scale is the per-head depth; -1e9 in float32 gives weight 0
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/goodatlas/hierarchical-attention-transformer https://github.com/goodatlas/hierarchical-attention-transformer/commit/1dd5877a8af173456b4b37f464264741440cbccb modeling/attention_utils.py
import tensorflow as tf

from .masks import decoder_masks


def attend(q, k, v, mask):
    scaled = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(tf.shape(k)[-1], tf.float32))
    if mask is not None:
        scaled += mask * -1e9
    probs = tf.nn.softmax(scaled, axis=-1)
    return tf.matmul(probs, v), probs


class HeadedAttention(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads):
        super().__init__()
        assert d_model % num_heads == 0
        self.depth = d_model // num_heads
        self.num_heads, self.d_model = num_heads, d_model
        self.wq = tf.keras.layers.Dense(d_model)
        self.wk = tf.keras.layers.Dense(d_model)
        self.wv = tf.keras.layers.Dense(d_model)
        self.out = tf.keras.layers.Dense(d_model)

    def split(self, x, batch):
        x = tf.reshape(x, (batch, -1, self.num_heads, self.depth))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def call(self, v, k, q, mask):
        batch = tf.shape(q)[0]
        q = self.split(self.wq(q), batch)
        k = self.split(self.wk(k), batch)
        v = self.split(self.wv(v), batch)
        ctx, weights = attend(q, k, v, mask)
        ctx = tf.reshape(tf.transpose(ctx, perm=[0, 2, 1, 3]), (batch, -1, self.d_model))
        return self.out(ctx), weights


class DecoderBlock(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.self_attn = HeadedAttention(d_model, num_heads)
        self.cross_attn = HeadedAttention(d_model, num_heads)
        self.n1 = tf.keras.layers.LayerNormalization()
        self.n2 = tf.keras.layers.LayerNormalization()

    def call(self, x, memory, src_ids, tgt_ids):
        _, self_mask, cross_mask = decoder_masks(src_ids, tgt_ids)
        h, _ = self.self_attn(x, x, x, self_mask)
        x = self.n1(x + h)
        h, _ = self.cross_attn(memory, memory, x, cross_mask)
        return self.n2(x + h)
