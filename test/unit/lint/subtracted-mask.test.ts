// Class from the precscan9d scan of hand-written Keras/TF and JAX transformers: a 0/1 mask times a large positive
// number subtracted from the scores (`e -= (1.0 - keep) * 1e9`, `e -= (ones - band_part(ones, -1, 0)) * 1e9`: the
// TensorFlow/Keras way of writing `e + mask * -1e9`). It masks where the mask is 1, so it must be True/1 at the
// positions to ignore, exactly as the additive form; a keep mask subtracted hides the real tokens (or the past) and
// attends the padding (or the future). Judged only where a softmax of the file normalises the scores: a penalty
// subtracted from span logits that a loss scores (GlobalPointer's lower triangle, `logits - tril(ones, -1) * 1e12`)
// follows no attention convention, and stays silent. Small examples written fresh, each with its fixed form.
import { strict as assert } from 'node:assert';
import { applyFixes, findingLines, linter, workspaceFindingLines } from './helpers';

const PAD = `import tensorflow as tf


def attend(q, k, v, tokens):
    e = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(tf.shape(k)[-1], tf.float32))
    keep = tf.cast(tf.math.not_equal(tokens, 0), tf.float32)[:, None, None, :]
    e = e - keep * 1e9
    return tf.matmul(tf.nn.softmax(e, axis=-1), v)
`;

const CAUSAL = `import tensorflow as tf


def history_only(query, key, value):
    d = tf.shape(query)[-1]
    e = tf.matmul(query, key, transpose_b=True) / tf.sqrt(tf.cast(d, tf.float32))
    ones = tf.ones((tf.shape(query)[1], tf.shape(key)[1]))
    e -= tf.linalg.band_part(ones, -1, 0) * 1e9
    a = tf.keras.activations.softmax(e)
    return tf.matmul(a, value)
`;

const JAX = `import jax
import jax.numpy as jnp


def attend(q, k, v, tokens):
    s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(q.shape[-1])
    keep = (tokens != 0).astype(jnp.float32)[:, None, None, :]
    s -= 1e9 * keep
    return jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(s, axis=-1), v)
`;

const SPANS = `import torch


def span_logits(qw, kw, pad):
    logits = torch.einsum("bmhd,bnhd->bhmn", qw, kw)
    logits = logits - (1 - pad[:, None, None, :]) * 1e12
    mask = torch.tril(torch.ones_like(logits), -1)
    logits = logits - mask * 1e12
    return logits / qw.shape[-1] ** 0.5
`;

describe('lint: a mask times a large positive number subtracted from the scores (ATT002)', () => {
  it('a keep mask (tokens != 0) subtracted is reported at the mask factor', async () => {
    assert.deepEqual(await findingLines(PAD, 'ATT002'), [7]);
  });
  it('fixed: (1.0 - keep) subtracted is silent, and the fix writes it', async () => {
    assert.deepEqual(await findingLines(PAD.replace('e - keep * 1e9', 'e - (1.0 - keep) * 1e9'), 'ATT002'), []);
    const fs = (await linter()).lintPython(PAD).filter((f) => f.code === 'ATT002');
    assert.match(applyFixes(PAD, fs), /e = e - \(1\.0 - keep\) \* 1e9/);
  });
  it('a padding mask (tokens == 0) subtracted is silent', async () => {
    assert.deepEqual(await findingLines(PAD.replace('not_equal', 'equal'), 'ATT002'), []);
  });
  it('the lower band (tril) subtracted with -= is reported; the strict upper triangle (ones - band_part) is silent', async () => {
    assert.deepEqual(await findingLines(CAUSAL, 'ATT002'), [8]);
    const fixed = CAUSAL.replace('e -= tf.linalg.band_part(ones, -1, 0) * 1e9', 'e -= (ones - tf.linalg.band_part(ones, -1, 0)) * 1e9');
    assert.deepEqual(await findingLines(fixed, 'ATT002'), []);
  });
  it('JAX: 1e9 * keep subtracted in place is reported; 1e9 * (1.0 - keep) is silent', async () => {
    assert.deepEqual(await findingLines(JAX, 'ATT002'), [8]);
    assert.deepEqual(await findingLines(JAX.replace('1e9 * keep', '1e9 * (1.0 - keep)'), 'ATT002'), []);
  });
  it('a penalty subtracted from span logits no softmax reads is silent (either triangle)', async () => {
    assert.deepEqual(await findingLines(SPANS, 'ATT002'), []);
    assert.deepEqual(await findingLines(SPANS.replace('torch.tril(torch.ones_like(logits), -1)', 'torch.triu(torch.ones_like(logits))'), 'ATT002'), []);
  });
  it('the blend scores * m - 1e4 * (1 - m) is judged once, at the product', async () => {
    const blend = `import torch


def f(q, k, v, ids):
    m = (ids != 0).float()[:, None, None, :]
    s = torch.matmul(q, k.transpose(-2, -1)) / q.size(-1) ** 0.5
    s = s * m - 10000.0 * (1.0 - m)
    return torch.softmax(s, dim=-1) @ v
`;
    assert.deepEqual(await findingLines(blend, 'ATT002'), []);
    assert.deepEqual(await findingLines(blend.replace('(ids != 0)', '(ids == 0)'), 'ATT002'), [7]);
  });
});

const UTILS = `import tensorflow as tf


def create_padding_mask(seq):
    pad = tf.cast(tf.math.equal(seq, 0), tf.float32)
    return pad[:, tf.newaxis, tf.newaxis, :]
`;

const LAYER = `import tensorflow as tf
from utils import create_padding_mask


def attend(q, k, v, mask):
    logits = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(tf.shape(k)[-1], tf.float32))
    logits -= mask * 1e9
    return tf.matmul(tf.nn.softmax(logits, axis=-1), v)


def encode(x, tokens):
    return attend(x, x, x, create_padding_mask(tokens))
`;

describe('lint: a subtracted mask built in another file (ATT002, cross-file)', () => {
  it('utils.py builds the padding mask (seq == 0): subtracting it is silent', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'utils.py': UTILS, 'layer.py': LAYER }, 'layer.py', 'ATT002'), []);
  });
  it('utils.py builds a keep mask (seq != 0): subtracting it is reported in the layer', async () => {
    const keep = UTILS.replace('tf.math.equal', 'tf.math.not_equal');
    assert.deepEqual(await workspaceFindingLines({ 'utils.py': keep, 'layer.py': LAYER }, 'layer.py', 'ATT002'), [7]);
  });
});
