// Session 49 (eng-s49c): an additive mask added to scores TensorFlow code casts to float32 (ATT007).
//
// Under a `mixed_float16` policy a Keras layer computes in float16, and `(1.0 - keep) * -1e9` in float16 is -inf where
// the mask hides (NaN for a row with every key hidden), which ATT007 reports. Code that casts the scores to float32
// first (`logits = tf.cast(logits, tf.float32)`, then `logits += pad * -1e9`) adds the mask in float32: TensorFlow adds
// only tensors of one dtype (no type promotion, unlike PyTorch, NumPy and JAX), so the code runs only if the mask product
// is float32 as well, where -1e9 fits. Probe p25 of test/lint-probes/session-49/c was reported for it.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const LAYER = (cast: string, policy = 'mixed_precision.set_global_policy("mixed_float16")'): string => `import tensorflow as tf
from tensorflow.keras import mixed_precision

${policy}


class Attention(tf.keras.layers.Layer):
    def call(self, q, k, v, padding_mask):
        # padding_mask: (batch, 1, 1, keys), 1.0 at padding
        logits = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(tf.shape(k)[-1], q.dtype))
        ${cast}
        logits += padding_mask * -1e9
        w = tf.cast(tf.nn.softmax(logits, axis=-1), v.dtype)
        return tf.matmul(w, v)
`;

describe('att007 (session 49): a mask added to scores cast to float32 in TensorFlow', () => {
  it('reports -1e9 added to the float16 scores of a mixed_float16 layer (the bug)', async () => {
    assert.deepEqual(await findingLines(LAYER('logits = tf.identity(logits)'), 'ATT007'), [12]);
  });
  it('is silent when the scores are cast to float32 before the mask is added', async () => {
    assert.deepEqual(await findingLines(LAYER('logits = tf.cast(logits, tf.float32)'), 'ATT007'), []);
  });
  it('is silent with float64 too', async () => {
    assert.deepEqual(await findingLines(LAYER('logits = tf.cast(logits, dtype=tf.float64)'), 'ATT007'), []);
  });
  it('still reports when the scores are cast to float16', async () => {
    assert.deepEqual(await findingLines(LAYER('logits = tf.cast(logits, tf.float16)'), 'ATT007'), [12]);
  });
  it('reads the policy set by a training script of another file, and the cast here', async () => {
    const files = (cast: string): Record<string, string> => ({
      'layers.py': LAYER(cast, ''),
      'train.py': `import tensorflow as tf\nfrom layers import Attention\n\ntf.keras.mixed_precision.set_global_policy("mixed_float16")\nlayer = Attention()\n`,
    });
    assert.deepEqual(await workspaceFindingLines(files('logits = tf.identity(logits)'), 'layers.py', 'ATT007'), [12]);
    assert.deepEqual(await workspaceFindingLines(files('logits = tf.cast(logits, tf.float32)'), 'layers.py', 'ATT007'), []);
  });
});
