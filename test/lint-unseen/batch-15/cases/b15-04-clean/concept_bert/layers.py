# case: b15-04-clean
# modelled-on: ChaoPang/keras-transformer https://github.com/ChaoPang/keras-transformer/commit/974ddbb59b9f1ed3c23ab960e02fa296393e0afa
# label: correct
# class: clean
# pattern: a Keras BERT over medical concept sequences with a learned time-interval attention: the data generator marks padding with (sequence == pad_id).astype(int), the model expands that int mask to (batch, 1, 1, seq) for the heads, the scaled dot-product helper (TF-tutorial style) divides by sqrt of the key width and adds mask * -1e9 and a per-pair time-attention bias to the logits; the time self-attention layer computes its own logits from clipped time deltas, damps same-concept pairs by a weak factor and adds expand_dims(mask, 1) * -1e9 before returning logits
# why: correct: the mask is 1 exactly on padding (built from == pad_id), so adding mask * -1e9 pushes only padded keys out, in both layers; the time bias is an additive logit, added before the softmax; the scale is the per-head key width; a naive reading of "mask" as a keep mask would call the additions inverted
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/ChaoPang/keras-transformer https://github.com/ChaoPang/keras-transformer/commit/974ddbb59b9f1ed3c23ab960e02fa296393e0afa bert_concept_embeddings/custom_layers.py
import tensorflow as tf


def dot_product_attention(q, k, v, mask, time_logits=None):
    """q, k, v: (..., seq, depth); mask: 1 on padded keys, broadcastable to (..., seq_q, seq_k)."""
    logits = tf.matmul(q, k, transpose_b=True)
    dk = tf.cast(tf.shape(k)[-1], tf.float32)
    logits = logits / tf.math.sqrt(dk)
    if mask is not None:
        logits += tf.cast(mask, dtype="float32") * -1e9
    if time_logits is not None:
        logits += time_logits
    weights = tf.nn.softmax(logits, axis=-1)
    return tf.matmul(weights, v), weights


class HeadedAttention(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads, **kwargs):
        super().__init__(**kwargs)
        self.num_heads = num_heads
        self.depth = d_model // num_heads
        self.d_model = d_model
        self.wq = tf.keras.layers.Dense(d_model)
        self.wk = tf.keras.layers.Dense(d_model)
        self.wv = tf.keras.layers.Dense(d_model)
        self.out = tf.keras.layers.Dense(d_model)

    def split(self, x, batch):
        x = tf.reshape(x, (batch, -1, self.num_heads, self.depth))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def call(self, v, k, q, mask, time_logits=None):
        batch = tf.shape(q)[0]
        q = self.split(self.wq(q), batch)
        k = self.split(self.wk(k), batch)
        v = self.split(self.wv(v), batch)
        ctx, weights = dot_product_attention(q, k, v, mask, time_logits)
        ctx = tf.reshape(tf.transpose(ctx, perm=[0, 2, 1, 3]), (batch, -1, self.d_model))
        return self.out(ctx), weights


class TimeSelfAttention(tf.keras.layers.Layer):
    """Learned attention over clipped time deltas between concepts; returns logits."""

    def __init__(self, vocab_size, seq_len, window=101, weak_factor=0.5, **kwargs):
        super().__init__(**kwargs)
        self.seq_len = seq_len
        self.half = window // 2
        self.window = self.half * 2 + 1
        self.weak_factor = weak_factor
        self.table = tf.keras.layers.Embedding(vocab_size, self.window, embeddings_initializer="zeros")

    def call(self, inputs):
        concepts, stamps, pad = inputs
        per_concept = self.table(concepts)  # (batch, seq, window)
        tiled = tf.tile(tf.expand_dims(stamps, axis=-1), tf.constant([1, 1, self.seq_len]))
        delta = tf.transpose(tiled - tf.expand_dims(stamps, axis=1), perm=[0, 2, 1])
        delta = tf.clip_by_value(delta, -self.half, self.half)
        one_hot = tf.one_hot(delta + self.half, self.window)  # (batch, seq, seq, window)
        per_concept = tf.math.divide_no_nan(per_concept, tf.reduce_sum(one_hot, axis=2))
        logits = tf.squeeze(tf.matmul(one_hot, tf.expand_dims(per_concept, axis=-1)), axis=-1)

        same = tf.tile(tf.expand_dims(concepts, axis=-1), tf.constant([1, 1, self.seq_len]))
        same = tf.cast(tf.equal(same, tf.expand_dims(concepts, axis=1)), dtype=tf.float32)
        logits -= logits * same * self.weak_factor

        if pad is not None:
            logits += tf.cast(tf.expand_dims(pad, axis=1), dtype="float32") * -1e9
        return logits
