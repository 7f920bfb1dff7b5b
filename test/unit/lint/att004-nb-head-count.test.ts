// Class from training folder h (t15h-03-scale's layer): Keras-era code names its counts `nb_*` (`nb_head`, `nb_heads`,
// as `nb_filter`, `nb_epoch`), so a layer that computes `head_dim = embedding_size // nb_head`, splits q, k and v into
// `(batch, length, nb_head, head_dim)` heads and folds them into the batch (`[batch * nb_head, length, head_dim]`) has
// per-head scores: dividing them by sqrt(embedding_size) uses the model width. The count was not read as a head count,
// so the split was not seen. Decided from the reshape's axes (a head count before the per-head width), as for `n_head`.
// The same layer often splits only when there are several heads (`if self.nb_head > 1: q = self._fold(q, ...)`): the
// path that skips the split has one head, whose width is the model width, so wherever there are several heads the
// scores are per-head, and the read after the block is taken as split. Written fresh: the buggy scale, the fixed one
// (sqrt(head_dim)), the split guarded by the head count, and one head (no split) that stays silent.
import { strict as assert } from 'node:assert';
import { findingLines } from './helpers';

const LAYER = (scale: string, split = true): string => `import tensorflow as tf


class HeadsAttention(tf.keras.layers.Layer):
    def __init__(self, embedding_size, nb_head):
        super().__init__()
        self.embedding_size = embedding_size
        self.nb_head = nb_head
        self.head_dim = embedding_size // nb_head
        self.wq = tf.keras.layers.Dense(embedding_size)
        self.wk = tf.keras.layers.Dense(embedding_size)
        self.wv = tf.keras.layers.Dense(embedding_size)

    def _fold(self, t, batch, length):
        t = tf.reshape(t, [batch, length, self.nb_head, self.head_dim])
        t = tf.transpose(t, [0, 2, 1, 3])
        return ${split ? 'tf.reshape(t, [batch * self.nb_head, length, self.head_dim])' : 't'}

    def call(self, q_in, k_in, v_in):
        batch = tf.shape(q_in)[0]
        q = self._fold(self.wq(q_in), batch, tf.shape(q_in)[1])
        k = self._fold(self.wk(k_in), batch, tf.shape(k_in)[1])
        v = self._fold(self.wv(v_in), batch, tf.shape(k_in)[1])
        logits = tf.matmul(q, k, transpose_b=True)
        logits = logits / ${scale}
        weights = tf.nn.softmax(logits, axis=-1)
        return tf.matmul(weights, v)
`;

const GUARDED = (scale: string): string =>
  LAYER(scale).replace(
    `        q = self._fold(self.wq(q_in), batch, tf.shape(q_in)[1])
        k = self._fold(self.wk(k_in), batch, tf.shape(k_in)[1])
        v = self._fold(self.wv(v_in), batch, tf.shape(k_in)[1])`,
    `        q, k, v = self.wq(q_in), self.wk(k_in), self.wv(v_in)
        if self.nb_head > 1:
            q = self._fold(q, batch, tf.shape(q_in)[1])
            k = self._fold(k, batch, tf.shape(k_in)[1])
            v = self._fold(v, batch, tf.shape(k_in)[1])`,
  );

const ONE_HEAD = `import tensorflow as tf


class Attention(tf.keras.layers.Layer):
    def __init__(self, embedding_size, nb_head=1):
        super().__init__()
        self.embedding_size = embedding_size
        self.wq = tf.keras.layers.Dense(embedding_size)
        self.wk = tf.keras.layers.Dense(embedding_size)

    def call(self, x):
        logits = tf.matmul(self.wq(x), self.wk(x), transpose_b=True)
        logits = logits / tf.math.sqrt(float(self.embedding_size))
        return tf.nn.softmax(logits, axis=-1)
`;

describe('ATT004: heads counted as nb_head', () => {
  it('reports sqrt of the model width on heads folded into the batch', async () => {
    assert.deepEqual(await findingLines(LAYER('tf.math.sqrt(float(self.embedding_size))'), 'ATT004'), [25]);
  });

  it('reports it on the 4-D heads too', async () => {
    assert.deepEqual(await findingLines(LAYER('tf.math.sqrt(float(self.embedding_size))', false), 'ATT004'), [25]);
  });

  it('reports it when the heads are split only if there are several', async () => {
    assert.deepEqual(await findingLines(GUARDED('tf.math.sqrt(float(self.embedding_size))'), 'ATT004'), [27]);
    assert.deepEqual(await findingLines(GUARDED('tf.math.sqrt(float(self.head_dim))'), 'ATT004'), []);
  });

  it('stays silent on the per-head width and on one head', async () => {
    assert.deepEqual(await findingLines(LAYER('tf.math.sqrt(float(self.head_dim))'), 'ATT004'), []);
    assert.deepEqual(await findingLines(ONE_HEAD, 'ATT004'), []);
  });
});
