// Session 36, reg-fill-s36: ATT002 (evaluator), class "one entry of the last axis of a tensor named for token ids,
// compared with 0".
//
// `tgt_labels[..., 0] == 0` reads channel 0 of one-hot labels (the background class), and `ids[:, 0] == 0` one token
// per row: neither is a token at every position, so neither is a padding mask over the keys, whatever the name says
// (`labels`, `ids`). Only the comparison of the whole ids (or a slice that keeps the positions, `src[:, None, None, :]`)
// with 0 is read as padding. Found by the rescan: a DETR matcher's cost (einsum of class probabilities with one-hot
// labels, in the arm a call in the file selects) blended with that channel, read as scores multiplied by a padding
// mask.
import { strict as assert } from 'node:assert';
import { findingLines, valueOf } from './helpers';

const MATCHER = `import jax.numpy as jnp


def compute_cost(tgt_labels, out_prob, target_is_onehot):
    # tgt_labels: [B, M] class ids, or [B, M, C] one-hot; out_prob: [B, N, C]
    if target_is_onehot:
        mask = tgt_labels[..., 0] == 0  # [B, M]
    else:
        mask = tgt_labels != 0  # [B, M]
    cost_class = -out_prob
    if target_is_onehot:
        cost_class = jnp.einsum("bnl,bml->bnm", cost_class, tgt_labels)
    upper = 1.0
    mask = mask[:, None]
    return cost_class * mask + (1.0 - mask) * upper


def test_onehot(labels, probs):
    return compute_cost(labels, probs, target_is_onehot=True)
`;

describe('ATT002: one channel of a tensor named for token ids is no padding mask (session 36)', () => {
  it('reads ids == 0 as padding, ids[..., 0] == 0 and ids[:, 0] == 0 as no mask of the positions', async () => {
    const src = `def f(tgt_labels, ids):\n    a = tgt_labels == 0\n    b = tgt_labels[..., 0] == 0\n    c = ids[:, 0] == 0\n    d = ids[:, None, None, :] == 0\n    return a, b, c, d\n`;
    assert.equal((await valueOf(src, 'tgt_labels == 0')).mask?.padding, true);
    assert.equal((await valueOf(src, 'tgt_labels[..., 0] == 0')).mask, undefined);
    assert.equal((await valueOf(src, 'ids[:, 0] == 0')).mask, undefined);
    assert.equal((await valueOf(src, 'ids[:, None, None, :] == 0')).mask?.padding, true);
  });

  it('is silent on a matcher cost blended with the background channel of one-hot labels', async () => {
    assert.deepEqual(await findingLines(MATCHER, 'ATT002'), []);
  });

  it('still reports token ids compared whole, filled where they are real tokens', async () => {
    const src = `import torch


def attend(q, k, v, src):
    # src: (B, T) token ids, 0 = padding
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    scores = scores.masked_fill(src[:, None, None, :] != 0, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), [7]);
  });
});
