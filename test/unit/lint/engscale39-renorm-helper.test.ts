// Session 39 (eng-scale-s39): weights masked after the softmax and renormalised by a helper of another file.
//
// ATT006 reports a mask applied to the weights after the softmax when nothing divides them by their new sum. A helper of
// the same file that does (`w / (w.sum(-1, keepdim=True) + eps)`) was followed; one in another workspace file was not:
// weights cross files as plain tensors, so the division there was read as an L2-like normalisation of an unknown tensor
// and the caller's mask stayed "not renormalised" (probe m04 of test/lint-probes/session-39/scale-axis). A helper of
// another file now hands back what it did to the weights passed in when that is a division by their own sum and
// nothing else: the caller's weights renormalised.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

// q, k, v: (B, H, T, d); keep: (T, S) bool band of allowed pairs; the weights (B, H, T, S).
const CALLER = (call: string): string => `import math
import torch

from norm_util import renormalise


def window_attention(q, k, v, keep):
    w = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.size(-1)), dim=-1)
    ${call}
    return w @ v
`;

const HELPER = (body: string): string => `def renormalise(w, eps=1e-9):
    # rows of w: (..., S)
    ${body}
`;

const INLINE = `import math
import torch


def window_attention(q, k, v, keep):
    w = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.size(-1)), dim=-1)
    w = w.masked_fill(~keep, 0.0)
    return w @ v
`;

const lines = (call: string, body: string): Promise<number[]> =>
  workspaceFindingLines({ 'attn.py': CALLER(call), 'norm_util.py': HELPER(body) }, 'attn.py', 'ATT006');

describe('engscale39: renormalisation by a helper of another file (ATT006)', () => {
  it('reports the mask after the softmax with nothing renormalising (the bug)', async () => {
    assert.deepEqual(await findingLines(INLINE, 'ATT006'), [7]);
  });
  it('is silent when a helper of another file divides the masked weights by their sum', async () => {
    assert.deepEqual(await lines('w = renormalise(w.masked_fill(~keep, 0.0))', 'return w / (w.sum(dim=-1, keepdim=True) + eps)'), []);
  });
  it('is silent when the masked weights are renormalised there in a later statement', async () => {
    const call = 'w = w * keep\n    w = renormalise(w)';
    assert.deepEqual(await lines(call, 'return w / w.sum(-1, keepdim=True).clamp_min(eps)'), []);
  });
  it('still reports when the helper of another file does something else to the weights', async () => {
    assert.deepEqual(await lines('w = renormalise(w.masked_fill(~keep, 0.0))', 'return w * 1.0'), [9]);
  });
  it('still reports when the helper divides by their norm, not their sum', async () => {
    assert.deepEqual(await lines('w = renormalise(w.masked_fill(~keep, 0.0))', 'return w / w.norm(dim=-1, keepdim=True)'), [9]);
  });
  it('still reports when the helper scales the renormalised weights again', async () => {
    assert.deepEqual(await lines('w = renormalise(w.masked_fill(~keep, 0.0))', 'return 2.0 * (w / w.sum(-1, keepdim=True))'), [9]);
  });
  it('still reports when the helper returns another value than the weights it was given', async () => {
    assert.deepEqual(await lines('w = renormalise(w.masked_fill(~keep, 0.0))', 'x = w.sum(-1, keepdim=True)\n    return x / x.sum(-1, keepdim=True)'), [9]);
  });
});
