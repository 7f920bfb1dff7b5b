// Class from training folder h (t15h-01-mask's mask module): a triangle of ones minus its diagonal,
// `tf.linalg.band_part(ones, 0, -1) - tf.linalg.band_part(ones, 0, 0)` (or `torch.triu(ones) - torch.eye(n)`), is the
// strict triangle: 1 strictly above (or below) the diagonal, the same side without it. The difference was not read as a
// mask at all, so a future mask multiplied into the scores (1 on the positions to hide) went unreported. Decided from
// the construction (band_part's bounds, the diagonal's ones), not from a name. Written fresh: the buggy product, the
// keep-side blend that stays silent, a PyTorch masked_fill of each polarity, and a cross-file pair (the mask module).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const TF = (mask: string, use: string): string => `import tensorflow as tf


def attend(q, k, v, length):
    ones = tf.ones([length, length])
    m = ${mask}
    score = tf.linalg.matmul(q, k, transpose_b=True) / 8.0
    score = ${use}
    w = tf.nn.softmax(score, axis=-1)
    return tf.linalg.matmul(w, v)
`;

const UPPER = 'tf.linalg.band_part(ones, 0, -1) - tf.linalg.band_part(ones, 0, 0)';
const LOWER = 'tf.linalg.band_part(ones, -1, 0) - tf.linalg.band_part(ones, 0, 0)';

const TORCH = (cond: string): string => `import torch


def attend(q, k, v):
    T = q.size(-2)
    ones = torch.ones(T, T)
    future = torch.triu(ones) - torch.eye(T)
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    scores = scores.masked_fill(${cond}, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
`;

describe('a triangle of ones minus its diagonal is the strict triangle', () => {
  it('reports the strict upper triangle (the future) multiplied into the scores as a keep mask', async () => {
    assert.deepEqual(await findingLines(TF(UPPER, 'score * m + (1.0 - m) * -1e9'), 'ATT002'), [8]);
  });

  it('stays silent on the strict lower triangle used as a keep mask, and on the future filled where it is 1', async () => {
    assert.deepEqual(await findingLines(TF(LOWER, 'score * m + (1.0 - m) * -1e9'), 'ATT002'), []);
    assert.deepEqual(await findingLines(TF(UPPER, 'score + m * -1e9'), 'ATT002'), []);
  });

  it('reads torch.triu(ones) - torch.eye(T) as the future in masked_fill', async () => {
    assert.deepEqual(await findingLines(TORCH('future == 0'), 'ATT002'), [9]);
    assert.deepEqual(await findingLines(TORCH('future.bool()'), 'ATT002'), []);
  });

  it('follows the mask built in another file', async () => {
    const masks = `import tensorflow as tf


def future_mask(length):
    ones = tf.ones([length, length])
    return ${UPPER}
`;
    const layer = (use: string): string => `import tensorflow as tf
from masks import future_mask


def attend(q, k, v):
    m = future_mask(tf.shape(q)[-2])
    score = tf.linalg.matmul(q, k, transpose_b=True) / 8.0
    score = ${use}
    return tf.linalg.matmul(tf.nn.softmax(score, axis=-1), v)
`;
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': masks, 'layer.py': layer('score * m + (1.0 - m) * -1e9') }, 'layer.py', 'ATT002'), [8]);
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': masks, 'layer.py': layer('score + m * -1e9') }, 'layer.py', 'ATT002'), []);
  });
});
