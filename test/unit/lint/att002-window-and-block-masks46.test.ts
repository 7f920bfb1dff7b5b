// Session 46, eng-s46c: two ATT002 precision classes sent by eng-s46d from a first-contact scan of fresh public
// repositories (`/work/wt/s46-classes.md`), both read as padding masks from lengths and reported as inverted:
//
// 1. "the edges of a window": a length mask joined with one reversed along the same axis (`sequence_mask(start, T) |
//    sequence_mask(T - width - start, T)[:, ::-1]`, True before a window and after it: a Tacotron-2 windowed attention
//    constraint, kept where the join is False). No batch is padded at both ends, so the join marks a window, not
//    padding: its meaning is not known and it is not judged. A reversed mask alone (left padding) keeps its meaning.
// 2. "a block mask written by ranges": an all-False square tensor with blocks set True by ranges of rows
//    (`m[r0:r1, :c] = True`, DN-DETR's denoising groups barred from each other, given to nn.MultiheadAttention as
//    True = not allowed). A range with both ends on an axis marks a block, not each example's positions up to its
//    length (`m[i, :lengths[i]] = True` in a loop over the batch), which still reads as a keep mask.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const WINDOWED = (joined: string, kept: string): string => `import tensorflow as tf


def constrained_alignments(energy, centre, width):
    """Location scores restricted to a window of keys that moves with the previous alignment peak."""
    n_keys = tf.shape(energy)[-1]
    before = tf.sequence_mask(centre, n_keys)
    after = tf.sequence_mask(n_keys - width - centre, n_keys)[:, ::-1]
    blocked = ${joined}
    floor = tf.ones_like(energy) * -1e9
    energy = tf.where(${kept}, energy, floor)
    return tf.nn.softmax(energy, axis=-1)
`;

const LEFT_PADDED = (kept: string): string => `import tensorflow as tf


def padded_alignments(energy, lengths):
    n_keys = tf.shape(energy)[-1]
    real = tf.sequence_mask(lengths, n_keys)[:, ::-1]
    floor = tf.ones_like(energy) * -1e9
    return tf.nn.softmax(tf.where(${kept}, energy, floor), axis=-1)
`;

describe('ATT002: a length mask joined with a reversed one is a window, not padding (session 46)', () => {
  it('is silent on the window kept where the join is False', async () => {
    assert.deepEqual(await findingLines(WINDOWED('tf.logical_or(before, after)', 'tf.equal(blocked, False)'), 'ATT002'), []);
    assert.deepEqual(await findingLines(WINDOWED('before | after', 'tf.logical_not(blocked)'), 'ATT002'), []);
  });

  it('still reads a reversed length mask alone (left padding) as a keep mask', async () => {
    assert.deepEqual(await findingLines(LEFT_PADDED('tf.equal(real, False)'), 'ATT002'), [8]);
    assert.deepEqual(await findingLines(LEFT_PADDED('real'), 'ATT002'), []);
  });
});

const LAYER = `import torch
from torch import nn


class GroupedQueryLayer(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)

    def forward(self, queries, attn_mask=None):
        out, _ = self.attn(queries, queries, queries, attn_mask=attn_mask)
        return out
`;

const GROUP_MASK = `

def group_isolation_mask(n_noised, n_matching, n_groups, span):
    total = n_noised + n_matching
    hidden = torch.full([total, total], False, dtype=torch.bool)
    hidden[n_noised:, :n_noised] = True
    for g in range(n_groups):
        hidden[span * g : span * (g + 1), span * (g + 1) : n_noised] = True
        hidden[span * g : span * (g + 1), : span * g] = True
    return hidden
`;

const STACK = `

class GroupedQueryStack(nn.Module):
    def __init__(self, d_model, n_heads, depth):
        super().__init__()
        self.layers = nn.ModuleList([GroupedQueryLayer(d_model, n_heads) for _ in range(depth)])

    def forward(self, queries, n_noised, n_matching, n_groups, span):
        mask = group_isolation_mask(n_noised, n_matching, n_groups, span)
        for layer in self.layers:
            queries = layer(queries, attn_mask=mask)
        return queries
`;

const PER_EXAMPLE = `import torch
from torch import nn


class PaddedEncoder(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)

    def forward(self, x, lengths):
        real = torch.zeros(x.shape[0], x.shape[1], dtype=torch.bool)
        for i in range(x.shape[0]):
            real[i, : lengths[i]] = True
        out, _ = self.attn(x, x, x, key_padding_mask=real)
        return out
`;

describe('ATT002: a block mask written by ranges of rows is no length mask (session 46)', () => {
  it('is silent on the denoising groups barred from each other (True = not allowed)', async () => {
    assert.deepEqual(await findingLines(LAYER + GROUP_MASK + STACK, 'ATT002'), []);
  });

  it('still reads ones written per example up to its length as a keep mask', async () => {
    assert.deepEqual(await findingLines(PER_EXAMPLE, 'ATT002'), [14]);
  });

  it('is silent with the block mask built in another file', async () => {
    const files = {
      'detr/layers.py': LAYER.replace('from torch import nn\n', 'from torch import nn\n\nfrom detr.denoising import group_isolation_mask\n') + STACK,
      'detr/denoising.py': 'import torch' + GROUP_MASK,
    };
    assert.deepEqual(await workspaceFindingLines(files, 'detr/layers.py', 'ATT002'), []);
  });
});
