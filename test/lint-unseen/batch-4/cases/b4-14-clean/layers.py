# case: b4-14-clean
# modelled-on: strutive07/transformer-tensorflow2.0 https://github.com/strutive07/transformer-tensorflow2.0/commit/436c4db5121b5d41bf3ca31e012e92adf803dd06
# label: correct
# class: clean
# pattern: a Keras translation transformer: masking.py builds float masks that are 1 where a position is hidden (`equal(ids, 0)` for padding, `1 - band_part(ones, -1, 0)` for the future, combined with tf.maximum); the scaled dot-product layer receives the per-head size from its parent, divides by its square root and adds `mask * -1e9` to the scores before a softmax over the last axis; a training step builds the masks and calls the model
# why: correct: the masks are 1 on the padding and the future, and `mask * -1e9` pushes exactly those logits down; the scale is sqrt(d_model // heads)
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/strutive07/transformer-tensorflow2.0 https://github.com/strutive07/transformer-tensorflow2.0/commit/436c4db5121b5d41bf3ca31e012e92adf803dd06 model.py
import tensorflow as tf

from masking import Masks


class DotProduct(tf.keras.layers.Layer):
    def __init__(self, d_h):
        super().__init__()
        self.d_h = d_h

    def call(self, query, key, value, mask=None):
        logits = tf.matmul(query, key, transpose_b=True)  # (batch, heads, q, k)
        logits = logits / tf.sqrt(tf.cast(self.d_h, dtype=tf.float32))
        if mask is not None:
            logits += mask * -1e9
        weights = tf.nn.softmax(logits, axis=-1)
        return tf.matmul(weights, value), weights


class HeadsAttention(tf.keras.layers.Layer):
    def __init__(self, heads, d_model):
        super().__init__()
        if d_model % heads != 0:
            raise ValueError("d_model must be a multiple of heads")
        self.heads = heads
        self.d_h = d_model // heads
        self.wq = tf.keras.layers.Dense(d_model)
        self.wk = tf.keras.layers.Dense(d_model)
        self.wv = tf.keras.layers.Dense(d_model)
        self.dot = DotProduct(self.d_h)
        self.out = tf.keras.layers.Dense(d_model)

    def split(self, t, batch):
        # (batch, seq, d_model) -> (batch, heads, seq, d_h)
        return tf.transpose(tf.reshape(t, (batch, -1, self.heads, self.d_h)), [0, 2, 1, 3])

    def call(self, query, key, value, mask=None):
        batch = tf.shape(query)[0]
        q = self.split(self.wq(query), batch)
        k = self.split(self.wk(key), batch)
        v = self.split(self.wv(value), batch)
        ctx, weights = self.dot(q, k, v, mask)
        ctx = tf.reshape(tf.transpose(ctx, [0, 2, 1, 3]), (batch, -1, self.heads * self.d_h))
        return self.out(ctx), weights


def train_step(model, optimizer, loss_fn, src, tgt):
    tgt_in, tgt_out = tgt[:, :-1], tgt[:, 1:]
    enc_pad, self_mask, cross_pad = Masks.for_batch(src, tgt_in)
    with tf.GradientTape() as tape:
        pred = model(src, tgt_in, enc_pad, self_mask, cross_pad, training=True)
        loss = loss_fn(tgt_out, pred)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss
