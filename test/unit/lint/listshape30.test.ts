// Session 30, integrator (from the 456-repository rescan): class "a shape comment stated per item of a list".
//
// Code that splits attention per head into Python lists writes the shape of each list item on the line that builds
// the list, with the item count after it (`]  # (bs, max_seq_length, 1, max_seq_length) * heads`). That comment
// says nothing about the list's own shape: reading it as the value's shape made an item of the list (`attn_weights[0]`,
// or `aw` of `[aw.softmax(dim=1) for aw in attn_weights]`) look like the tensor minus its first axis, so a softmax over
// the keys (dim=1 of (bs, keys, 1, queries)) was taken for one over a length-1 axis. A comment with no count after it
// still states the value's shape, and a softmax over a stated length-1 axis is still reported.
import { strict as assert } from 'node:assert';
import { trailingCommentShape } from '../../../src/lint/analysis/comments';
import { findingLines } from './helpers';

const perHead = (comment: string, read: string): string => `import torch


def split_einsum(q, k, v, heads, dim_head):
    mh_q = [
        q[:, i * dim_head:(i + 1) * dim_head, :, :] for i in range(heads)
    ]  # (bs, dim_head, 1, max_seq_length) * heads
    k = k.transpose(1, 3)
    mh_k = [
        k[:, :, :, i * dim_head:(i + 1) * dim_head] for i in range(heads)
    ]  # (bs, max_seq_length, 1, dim_head) * heads
    attn_weights = [
        torch.einsum("bchq,bkhc->bkhq", qi, ki) * (dim_head ** -0.5)
        for qi, ki in zip(mh_q, mh_k)
    ]  # ${comment}
${read}
    return attn_weights
`;

describe('lint: a shape comment stated per item of a list (listshape30)', () => {
  it('reads "(...) * heads" and "(...) x 3" as the shape of list items, not of the value', () => {
    assert.equal(trailingCommentShape('# (bs, max_seq_length, 1, max_seq_length) * heads'), undefined);
    assert.equal(trailingCommentShape('# (B, T, C) x 3'), undefined);
    assert.equal(trailingCommentShape('# (B, T, C) \u00d7 n_heads'), undefined);
    // A product of two shapes and a plain shape are still read.
    assert.equal(trailingCommentShape('# (B, nh, T, T) x (B, nh, T, hs)')!.length, 4);
    assert.equal(trailingCommentShape('# (bs, max_seq_length, 1, max_seq_length)')!.length, 4);
  });

  it('is silent on a softmax over the keys of per-head list items (comprehension and indexing)', async () => {
    const comp = perHead('(bs, max_seq_length, 1, max_seq_length) * heads', '    attn_weights = [aw.softmax(dim=1) for aw in attn_weights]');
    assert.deepEqual(await findingLines(comp, 'ATT001'), []);
    const indexed = perHead('(bs, max_seq_length, 1, max_seq_length) * heads', '    aw = attn_weights[0]\n    attn_weights = [aw.softmax(dim=1)]');
    assert.deepEqual(await findingLines(indexed, 'ATT001'), []);
  });

  it('still reports a softmax over an axis a comment states has length 1', async () => {
    const src = `import torch


def pool(x, w):
    logits = x @ w  # (B, T, 1)
    return torch.softmax(logits, dim=-1)
`;
    assert.deepEqual(await findingLines(src, 'ATT001'), [6]);
  });
});
