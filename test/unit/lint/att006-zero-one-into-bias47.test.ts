// Session 47 (eng-s47c): a 0/1 padding mask added into a zeros bias that the scores then take (ATT006).
//
// Class: a hand-written `scaled_dot_product_attention` in the reference form (a bias of zeros; a boolean mask filled
// into it with -inf, any other mask added to it, `bias += mask`; a causal arm under `is_causal`), called with a float
// 0/1 keep mask: `(x.sum(-1) != 0).float()`, the frames whose features are not all zero (padding is zero vectors).
// The float mask takes the additive arm, so the scores get +1 at real frames and 0 at padding: nothing is masked.
// Three things hid it: (1) a comparison of features summed over their last axis with 0 was no mask at all (now a
// padding mask, True at the real positions for `!=`); (2) an augmented assignment read every earlier definition of
// its target, also one in an `if` arm the call cannot take (`bias.masked_fill_(...)` under `if is_causal:` called with
// False), so `bias += mask` no longer started from the zeros (evaluator.ts: the `aug` definition reads liveInCtx);
// (3) the finding sat at the scores' sum, `s += bias`, which is right for additive masks: it is now reported where the
// 0/1 mask goes into the bias.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const HELPER = `import math

import torch


def sdpa(q, k, v, attn_mask=None, is_causal=False):
    bias = torch.zeros(q.size(0), 1, q.size(-2), k.size(-2), dtype=q.dtype, device=q.device)
    if is_causal:
        keep = torch.ones(q.size(-2), k.size(-2), dtype=torch.bool, device=q.device).tril()
        bias.masked_fill_(~keep, float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            bias.masked_fill_(~attn_mask, float("-inf"))
        else:
            bias += attn_mask
    logits = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
    logits += bias
    return torch.matmul(torch.softmax(logits, dim=-1), v)
`;

/** The caller: frames of zeros are padding; `cast` turns the keep mask into float (the bug) or leaves it boolean. */
const CALLER = (cast: string): string => `def encode(frames, proj_q, proj_k, proj_v):
    valid = (frames.sum(dim=-1) != 0)[:, None, None, :]${cast}
    return sdpa(proj_q(frames)[:, None], proj_k(frames)[:, None], proj_v(frames)[:, None], valid)
`;

describe('ATT006 a 0/1 mask added into a zeros bias (session 47)', () => {
  it('reports a float keep mask of feature sums added into the bias, where it goes in', async () => {
    assert.deepEqual(await findingLines(`${HELPER}\n\n${CALLER('.float()')}`, 'ATT006'), [15]);
  });

  it('stays silent on the boolean mask, which the helper fills with -inf', async () => {
    assert.deepEqual(await findingLines(`${HELPER}\n\n${CALLER('')}`, 'ATT006'), []);
  });

  it('stays silent on the helper with no caller in view (the mask may be additive)', async () => {
    assert.deepEqual(await findingLines(HELPER, 'ATT006'), []);
  });

  it('reads the mask from a file that imports the helper', async () => {
    const model = (cast: string): string => `from attention import sdpa\n\n\n${CALLER(cast)}`;
    const files = (cast: string): Record<string, string> => ({ 'attention.py': HELPER, 'model.py': model(cast) });
    assert.deepEqual(await workspaceFindingLines(files('.float()'), 'attention.py', 'ATT006'), [15]);
    assert.deepEqual(await workspaceFindingLines(files(''), 'attention.py', 'ATT006'), []);
  });
});
