// Session 36, reg-fill-s36: ATT006, class "a mask after the softmax that does not vary along the axis the softmax
// normalised".
//
// Dynamic routing (capsules, multi-interest recommenders) softmaxes its routing logits (batch, capsules, items) over
// the capsules, axis 1, and then zeroes the padded items: the mask is one (batch, items) mask copied over the
// capsules (`tf.tile(tf.expand_dims(keep, 1), [1, K, 1])`, `keep[:, None, :]`). Along the axis the softmax
// normalised it is the same everywhere, so each distribution over the capsules is kept whole or zeroed whole: no
// row is left summing to less than 1. Read from the shapes the code shows (a length-1 axis, one expanded or tiled
// from length 1, or an axis the mask lacks); the same mask after a softmax over the items is still reported.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const tfRoute = (axis: string): string => `import tensorflow as tf


def route(votes, lengths, num_caps, seq_len, iters=3):
    # votes: (N, K, T, D): each of T items votes for K capsules
    keep = tf.sequence_mask(lengths, seq_len, dtype=tf.float32)  # (N, T)
    item_keep = tf.tile(tf.expand_dims(keep, axis=1), [1, num_caps, 1])  # (N, K, T)
    logits = tf.zeros([tf.shape(votes)[0], num_caps, seq_len])
    for _ in range(iters):
        c = tf.nn.softmax(logits, axis=${axis})
        c = tf.where(tf.equal(item_keep, 0), tf.zeros_like(c), c)
        caps = tf.matmul(tf.expand_dims(c, 2), votes)  # (N, K, 1, D)
        logits = logits + tf.reduce_sum(votes * caps, axis=-1)
    return tf.squeeze(caps, 2)
`;

const torchRoute = (dim: string, mask = 'keep[:, None, :]'): string => `import torch


def route(votes, lengths, iters=3):
    # votes: (B, K, T, D)
    B, K, T, D = votes.shape
    keep = (torch.arange(T, device=votes.device)[None, :] < lengths[:, None]).float()  # (B, T)
    logits = votes.new_zeros(B, K, T)
    for _ in range(iters):
        c = torch.softmax(logits, dim=${dim})
        c = c * ${mask}
        caps = torch.matmul(c.unsqueeze(2), votes).squeeze(2)  # (B, K, D)
        logits = logits + (votes * caps.unsqueeze(2)).sum(-1)
    return caps
`;

describe('ATT006: a post-softmax mask constant along the softmax axis (session 36)', () => {
  it('is silent on a tiled item mask after a softmax over the capsules (TensorFlow)', async () => {
    assert.deepEqual(await findingLines(tfRoute('1'), 'ATT006'), []);
  });

  it('still reports the same mask after a softmax over the items', async () => {
    assert.deepEqual(await findingLines(tfRoute('-1'), 'ATT006'), [11]);
  });

  it('is silent on a length-1 axis at the softmax axis, and on an expanded copy (PyTorch)', async () => {
    assert.deepEqual(await findingLines(torchRoute('1'), 'ATT006'), []);
    assert.deepEqual(await findingLines(torchRoute('1', 'keep.unsqueeze(1).expand(-1, K, -1)'), 'ATT006'), []);
  });

  it('reports the same PyTorch masks when the softmax normalises the items', async () => {
    assert.deepEqual(await findingLines(torchRoute('-1'), 'ATT006'), [11]);
    assert.deepEqual(await findingLines(torchRoute('-1', 'keep.unsqueeze(1).expand(-1, K, -1)'), 'ATT006'), [11]);
  });

  it('reads the tiled mask built in another file', async () => {
    const masks = `import tensorflow as tf


def item_keep(lengths, seq_len, num_caps):
    keep = tf.sequence_mask(lengths, seq_len, dtype=tf.float32)  # (N, T)
    return tf.tile(tf.expand_dims(keep, axis=1), [1, num_caps, 1])  # (N, K, T)
`;
    const routing = (axis: string): string => `import tensorflow as tf

from .masks import item_keep


def route(votes, lengths, num_caps, seq_len, iters=3):
    # votes: (N, K, T, D)
    keep = item_keep(lengths, seq_len, num_caps)
    logits = tf.zeros([tf.shape(votes)[0], num_caps, seq_len])
    for _ in range(iters):
        c = tf.nn.softmax(logits, axis=${axis})
        c = tf.where(tf.equal(keep, 0), tf.zeros_like(c), c)
        caps = tf.matmul(tf.expand_dims(c, 2), votes)  # (N, K, 1, D)
        logits = logits + tf.reduce_sum(votes * caps, axis=-1)
    return tf.squeeze(caps, 2)
`;
    const files = (axis: string): Record<string, string> => ({ 'pkg/__init__.py': '', 'pkg/masks.py': masks, 'pkg/routing.py': routing(axis) });
    assert.deepEqual(await workspaceFindingLines(files('1'), 'pkg/routing.py', 'ATT006'), []);
    assert.deepEqual(await workspaceFindingLines(files('-1'), 'pkg/routing.py', 'ATT006'), [12]);
  });
});
