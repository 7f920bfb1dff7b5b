// ATT007, class "an additive mask whose magnitude is too small to mask": a 0/1 mask multiplied by a tiny constant
// (`mask * 1e-9`, a typo for -1e9; `mask / 1e9`) and added to scores that a softmax normalises, in any framework.
// The operand the product is added to decides it: a mask scaled small and used elsewhere, a mask already additive
// (0/-inf) and the large negative factor (the fixed form) stay silent.
import { strict as assert } from 'node:assert';
import { createLinter, type ExtendedLinter } from '../../../src/lint';
import { grammar, linter, memoryWorkspace } from './helpers';

const TF = `import tensorflow as tf


def padding_mask(ids):
    # 1.0 where the token is padding
    return tf.cast(tf.math.equal(ids, 0), tf.float32)[:, tf.newaxis, tf.newaxis, :]


def attention(q, k, v, ids):
    logits = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(tf.shape(k)[-1], tf.float32))
    logits += padding_mask(ids) * 1e-9
    weights = tf.nn.softmax(logits, axis=-1)
    return tf.matmul(weights, v)
`;

const TORCH = `import torch


def attend(q, k, v, mask):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    if mask is not None:
        scores = scores + (1.0 - mask.float()) * -1e-9
    return torch.softmax(scores, dim=-1) @ v
`;

async function att007(src: string, l?: ExtendedLinter, path?: string): Promise<number[]> {
  return (l ?? (await linter()))
    .lintPython(src, path ? { path } : undefined)
    .filter((f) => f.code === 'ATT007')
    .map((f) => f.line);
}

describe('lint: an additive mask scaled too small to mask (ATT007)', () => {
  it('TensorFlow: a padding mask times 1e-9 added to the logits is reported at the factor', async () => {
    const [f] = (await linter()).lintPython(TF).filter((x) => x.code === 'ATT007');
    assert.ok(f);
    assert.equal(f.line, 11);
    assert.match(f.message, /scales the mask/);
    assert.ok(f.related?.some((r) => r.line === 12));
    assert.equal(f.fix, undefined);
  });
  it('fixed: the mask times -1e9 is silent', async () => {
    assert.deepEqual(await att007(TF.replace('* 1e-9', '* -1e9')), []);
  });
  it('a division by a large number is the same slip; a mask scaled small and not added to scores is silent', async () => {
    assert.deepEqual(await att007(TF.replace('* 1e-9', '/ 1e9')), [11]);
    const elsewhere = TF.replace('logits += padding_mask(ids) * 1e-9', 'eps_mask = padding_mask(ids) * 1e-9');
    assert.deepEqual(await att007(elsewhere), []);
  });
  it('PyTorch: (1 - mask) * -1e-9 added to the scores is reported; -1e9 is silent', async () => {
    assert.deepEqual(await att007(TORCH), [7]);
    assert.deepEqual(await att007(TORCH.replace('-1e-9', '-1e9')), []);
  });
  it('a mask parameter (its values unknown here) times 1e-9 added to the logits is reported: no mask values it may hold (0/1, finite negatives) mask after the scaling', async () => {
    const src = `import tensorflow as tf


def attention(q, k, v, mask):
    logits = tf.matmul(q, k, transpose_b=True)
    if mask is not None:
        logits += mask * 1e-9
    return tf.matmul(tf.nn.softmax(logits, axis=-1), v)
`;
    assert.deepEqual(await att007(src), [7]);
    assert.deepEqual(await att007(src.replace('1e-9', '-1e9')), []);
  });
  it('a mask already additive (0/-inf) scaled small still masks: silent', async () => {
    const src = `import torch


def attend(q, k, v, keep):
    bias = torch.zeros(keep.shape).masked_fill(~keep, float("-inf"))
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    scores = scores + bias * 1e-3
    return torch.softmax(scores, dim=-1) @ v
`;
    assert.deepEqual(await att007(src), []);
  });
  it('cross-file: the mask built in another module and scaled by 1e-9 in the attention module is reported', async () => {
    const masks = `import tensorflow as tf


def create_padding_mask(x):
    return tf.cast(tf.math.equal(x, 0), tf.float32)[:, tf.newaxis, tf.newaxis, :]
`;
    const attn = `import tensorflow as tf

from masks import create_padding_mask


def attention(q, k, v, ids):
    logits = tf.matmul(q, k, transpose_b=True)
    logits += create_padding_mask(ids) * 1e-9
    return tf.matmul(tf.nn.softmax(logits, axis=-1), v)
`;
    const ws = (a: string) =>
      createLinter(grammar(), { workspace: memoryWorkspace({ 'masks.py': masks, 'attn.py': a }), onInternalError: (e) => assert.fail(String(e)) });
    assert.deepEqual(await att007(attn, await ws(attn), 'attn.py'), [8]);
    const fixed = attn.replace('* 1e-9', '* -1e9');
    assert.deepEqual(await att007(fixed, await ws(fixed), 'attn.py'), []);
  });
});
